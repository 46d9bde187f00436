use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let t: usize = it.next().unwrap().parse().unwrap();
    let mut out = String::new();
    for y in it.take(t).map(|x| x.parse::<u64>().unwrap()) {
        out.push_str(if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) { "YES\n" } else { "NO\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
