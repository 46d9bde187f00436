use std::io::{stdin, stdout, Read, Write};

fn main() {
    let mut buf = String::new();
    stdin().read_to_string(&mut buf).unwrap();
    let mut nums = buf.split_whitespace().map(|x| x.parse::<i32>().unwrap());
    let n = nums.next().unwrap() as usize;
    let mut v: Vec<i32> = nums.take(n).collect();
    v.sort_unstable();
    let line = v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ");
    let out = stdout();
    let mut lock = out.lock();
    writeln!(lock, "{}", line).unwrap();
}
