use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let it = input.split_ascii_whitespace();
    println!("{}", it.count());
}
