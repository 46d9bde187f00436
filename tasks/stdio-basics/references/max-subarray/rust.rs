use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let n: usize = it.next().unwrap().parse().unwrap();
    let xs: Vec<i64> = it.take(n).map(|x| x.parse().unwrap()).collect();
    let (mut best, mut current) = (xs[0], xs[0]);
    for &x in &xs[1..] {
        current = x.max(current + x);
        best = best.max(current);
    }
    println!("{}", best);
}
