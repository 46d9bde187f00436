use std::io::{self, BufReader, Read};

fn main() {
    let reader = BufReader::new(io::stdin());
    let (mut bytes, mut lines, mut words) = (0u64, 0u64, 0u64);
    let mut in_word = false;
    for b in reader.bytes() {
        let b = b.unwrap();
        bytes += 1;
        if b == b'\n' {
            lines += 1;
        }
        if matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
            in_word = false;
        } else if !in_word {
            in_word = true;
            words += 1;
        }
    }
    println!("{} {} {}", bytes, lines, words);
}
