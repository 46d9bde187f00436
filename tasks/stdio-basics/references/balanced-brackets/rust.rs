use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let s = input.lines().next().unwrap_or("").trim();
    let mut stack: Vec<char> = Vec::new();
    let mut ok = true;
    for c in s.chars() {
        match c {
            '(' | '[' | '{' => stack.push(c),
            _ => {
                let open = match c { ')' => '(', ']' => '[', _ => '{' };
                if stack.pop() != Some(open) {
                    ok = false;
                    break;
                }
            }
        }
    }
    println!("{}", if ok && stack.is_empty() { "YES" } else { "NO" });
}
