use std::io::{self, BufWriter, Read, Write};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let n: u32 = s.trim().parse().unwrap();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for i in 1..=n {
        writeln!(out, "{}", i).unwrap();
    }
}
