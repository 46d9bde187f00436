use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let line = input.lines().next().unwrap_or("");
    let mut counts = [0usize; 26];
    for c in line.chars() {
        if c.is_ascii_alphabetic() {
            counts[(c.to_ascii_lowercase() as u8 - b'a') as usize] += 1;
        }
    }
    for (k, count) in counts.iter().enumerate() {
        if *count > 0 {
            println!("{} {}", (b'a' + k as u8) as char, count);
        }
    }
}
