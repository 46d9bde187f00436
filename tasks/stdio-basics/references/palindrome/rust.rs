use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let s = it.next().unwrap();
    let reversed: String = s.chars().rev().collect();
    println!("{}", if reversed == s { "YES" } else { "NO" });
}
