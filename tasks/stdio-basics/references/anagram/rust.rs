use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let mut a: Vec<char> = it.next().unwrap().chars().collect();
    let mut b: Vec<char> = it.next().unwrap().chars().collect();
    a.sort();
    b.sort();
    println!("{}", if a == b { "YES" } else { "NO" });
}
