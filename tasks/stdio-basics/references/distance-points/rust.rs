use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let it = input.split_ascii_whitespace();
    let v: Vec<f64> = it.take(4).map(|x| x.parse().unwrap()).collect();
    println!("{:.9}", (v[2] - v[0]).hypot(v[3] - v[1]));
}
