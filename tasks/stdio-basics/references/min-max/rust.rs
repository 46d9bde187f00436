use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let n: usize = it.next().unwrap().parse().unwrap();
    let xs: Vec<i64> = it.take(n).map(|x| x.parse().unwrap()).collect();
    println!("{} {}", xs.iter().min().unwrap(), xs.iter().max().unwrap());
}
