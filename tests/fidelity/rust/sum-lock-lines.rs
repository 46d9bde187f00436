use std::io::{self, BufRead};

fn main() {
    let stdin = io::stdin();
    let mut tokens: Vec<i64> = Vec::new();
    for line in stdin.lock().lines() {
        let line = line.expect("read error");
        tokens.extend(line.split_whitespace().map(|x| x.parse::<i64>().unwrap()));
    }
    let n = tokens[0] as usize;
    let total: i64 = tokens[1..=n].iter().sum();
    println!("{}", total);
}
