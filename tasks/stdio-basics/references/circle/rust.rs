use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let r: f64 = it.next().unwrap().parse().unwrap();
    let pi = std::f64::consts::PI;
    println!("{:.9} {:.9}", pi * r * r, 2.0 * pi * r);
}
