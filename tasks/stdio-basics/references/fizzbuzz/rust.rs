use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let n: u32 = it.next().unwrap().parse().unwrap();
    let mut out = String::new();
    for i in 1..=n {
        let word = if i % 15 == 0 { "FizzBuzz".to_string() } else if i % 3 == 0 { "Fizz".to_string() }
                   else if i % 5 == 0 { "Buzz".to_string() } else { i.to_string() };
        out.push_str(&word);
        out.push('\n');
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
