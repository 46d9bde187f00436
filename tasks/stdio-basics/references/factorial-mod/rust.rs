use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let n: u64 = it.next().unwrap().parse().unwrap();
    const MOD: u64 = 1_000_000_007;
    let mut result: u64 = 1;
    for i in 2..=n {
        result = result * i % MOD;
    }
    println!("{}", result);
}
