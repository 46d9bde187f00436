use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let n: usize = it.next().unwrap().parse().unwrap();
    let total: i64 = it.take(n).map(|x| x.parse::<i64>().unwrap()).sum();
    println!("{:.9}", total as f64 / n as f64);
}
