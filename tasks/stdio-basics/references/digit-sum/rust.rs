use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let total: u32 = it.next().unwrap().chars().map(|d| d.to_digit(10).unwrap()).sum();
    println!("{}", total);
}
