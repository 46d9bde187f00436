use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace();
    let n: usize = it.next().unwrap().parse().unwrap();
    let mut composite = vec![false; n + 1];
    let mut primes: Vec<String> = Vec::new();
    for i in 2..=n {
        if composite[i] {
            continue;
        }
        primes.push(i.to_string());
        let mut j = i * i;
        while j <= n {
            composite[j] = true;
            j += i;
        }
    }
    println!("{}", primes.join(" "));
}
