use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut lines = input.lines();
    let k: u8 = lines.next().unwrap().trim().parse().unwrap();
    let out: String = lines.next().unwrap_or("").chars().map(|c| {
        if c.is_ascii_lowercase() { ((c as u8 - b'a' + k) % 26 + b'a') as char }
        else if c.is_ascii_uppercase() { ((c as u8 - b'A' + k) % 26 + b'A') as char } else { c }
    }).collect();
    println!("{}", out);
}
