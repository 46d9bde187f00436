use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let n: usize = it.next().unwrap().parse().unwrap();
    let mut total: i64 = 0;
    let out: Vec<String> = it.take(n).map(|x| {
        total += x.parse::<i64>().unwrap();
        total.to_string()
    }).collect();
    println!("{}", out.join(" "));
}
