use std::io::{self, BufWriter, Read, Write};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let n: usize = s.trim().parse().unwrap();
    let mut is_prime = vec![true; n + 1];
    is_prime[0] = false;
    if n >= 1 {
        is_prime[1] = false;
    }
    let mut i = 2;
    while i * i <= n {
        if is_prime[i] {
            let mut j = i * i;
            while j <= n {
                is_prime[j] = false;
                j += i;
            }
        }
        i += 1;
    }
    let primes: Vec<String> = (0..=n).filter(|&k| is_prime[k]).map(|k| k.to_string()).collect();
    let mut out = BufWriter::new(io::stdout());
    writeln!(out, "{}", primes.len()).unwrap();
    writeln!(out, "{}", primes.join(" ")).unwrap();
}
