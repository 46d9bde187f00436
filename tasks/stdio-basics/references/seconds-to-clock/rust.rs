use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let s: u32 = it.next().unwrap().parse().unwrap();
    print!("{:02}:{:02}:{:02}\n", s / 3600, s / 60 % 60, s % 60);
}
