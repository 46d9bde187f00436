use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let n: usize = it.next().unwrap().parse().unwrap();
    let width = (n * n).to_string().len();
    for i in 1..=n {
        let row: Vec<String> = (1..=n).map(|j| format!("{:>w$}", i * j, w = width)).collect();
        println!("{}", row.join(" "));
    }
}
