use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let r: usize = it.next().unwrap().parse().unwrap();
    let c: usize = it.next().unwrap().parse().unwrap();
    let m: Vec<&str> = it.take(r * c).collect();
    let mut out = String::new();
    for j in 0..c {
        let row: Vec<&str> = (0..r).map(|i| m[i * c + j]).collect();
        out.push_str(&row.join(" "));
        out.push('\n');
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
