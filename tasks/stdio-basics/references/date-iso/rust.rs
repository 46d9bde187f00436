use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let parts: Vec<u32> = input.trim().split('/').map(|x| x.parse().unwrap()).collect();
    print!("{:04}-{:02}-{:02}\n", parts[2], parts[1], parts[0]);
}
