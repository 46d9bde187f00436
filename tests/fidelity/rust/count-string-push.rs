use std::fmt::Write as FmtWrite;
use std::io::{self, BufRead, Write};

fn main() {
    let mut line = String::new();
    io::stdin().lock().read_line(&mut line).unwrap();
    let n: usize = line.trim().parse().unwrap();
    let mut out = String::with_capacity(n * 7);
    for i in 1..=n {
        write!(out, "{}\n", i).unwrap();
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
