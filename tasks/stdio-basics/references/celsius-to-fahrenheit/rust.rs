use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let n: usize = it.next().unwrap().parse().unwrap();
    let mut out = String::new();
    for c in it.take(n).map(|x| x.parse::<f64>().unwrap()) {
        out.push_str(&format!("{:.9}\n", c * 9.0 / 5.0 + 32.0));
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
