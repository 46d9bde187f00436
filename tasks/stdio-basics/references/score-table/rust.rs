use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let n: usize = it.next().unwrap().parse().unwrap();
    let rows: Vec<(&str, &str)> = (0..n).map(|_| (it.next().unwrap(), it.next().unwrap())).collect();
    let w = rows.iter().map(|r| r.0.len()).max().unwrap();
    let v = rows.iter().map(|r| r.1.len()).max().unwrap();
    for (name, score) in rows {
        println!("{:<w$} | {:>v$}", name, score, w = w, v = v);
    }
}
