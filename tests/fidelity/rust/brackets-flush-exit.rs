use std::io::{self, BufRead, BufWriter, Write};
use std::process;

fn balanced(s: &str) -> bool {
    let mut stack = Vec::new();
    for c in s.chars() {
        match c {
            '(' | '[' | '{' => stack.push(c),
            ')' => if stack.pop() != Some('(') { return false; },
            ']' => if stack.pop() != Some('[') { return false; },
            '}' => if stack.pop() != Some('{') { return false; },
            _ => {}
        }
    }
    stack.is_empty()
}

fn main() {
    let stdin = io::stdin();
    let mut out = BufWriter::new(io::stdout());
    let mut checked = 0;
    for line in stdin.lock().lines() {
        let line = line.unwrap();
        writeln!(out, "{}", if balanced(line.trim_end()) { "YES" } else { "NO" }).unwrap();
        checked += 1;
    }
    eprintln!("checked {} lines", checked);
    out.flush().unwrap();
    process::exit(0);
}
