use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let name = input.lines().next().unwrap_or("");
    print!("Hello, {}!\n", name);
}
