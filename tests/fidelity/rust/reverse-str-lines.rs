use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let lines: Vec<&str> = input.lines().collect();
    let stdout = io::stdout();
    let mut handle = stdout.lock();
    for line in lines.iter().rev() {
        handle.write_all(line.as_bytes()).unwrap();
        handle.write_all(b"\n").unwrap();
    }
    handle.flush().unwrap();
}
