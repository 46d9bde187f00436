use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let n: usize = it.next().unwrap().parse().unwrap();
    for k in (1..=n).chain((1..n).rev()) {
        println!("{}{}", " ".repeat(n - k), "*".repeat(2 * k - 1));
    }
}
