use std::io::{self, Read};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let it = input.split_ascii_whitespace();
    let v: Vec<f64> = it.take(3).map(|x| x.parse().unwrap()).collect();
    let (a, b, c) = (v[0], v[1], v[2]);
    let d = (b * b - 4.0 * a * c).sqrt();
    // the numerically stable form: no cancellation between -b and d
    let q = -0.5 * (b + d.copysign(b));
    let (x1, x2) = (q / a, c / q);
    println!("{:.9} {:.9}", x1.min(x2), x1.max(x2));
}
