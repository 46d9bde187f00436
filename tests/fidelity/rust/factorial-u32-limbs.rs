use std::io;

const BASE: u64 = 1_000_000_000;

fn main() {
    let mut line = String::new();
    io::stdin().read_line(&mut line).unwrap();
    let n: u64 = line.trim().parse().unwrap();
    let mut limbs: Vec<u64> = vec![1];
    for k in 2..=n {
        let mut carry = 0u64;
        for limb in limbs.iter_mut() {
            let cur = *limb * k + carry;
            *limb = cur % BASE;
            carry = cur / BASE;
        }
        while carry > 0 {
            limbs.push(carry % BASE);
            carry /= BASE;
        }
    }
    let mut s = limbs.last().unwrap().to_string();
    for limb in limbs.iter().rev().skip(1) {
        s.push_str(&format!("{:09}", limb));
    }
    println!("{}", s);
}
