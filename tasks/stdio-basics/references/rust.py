"""Rust (2021 edition) reference solutions of the stdio-basics problems, by problem name."""

HEAD = """use std::io::{self, %s};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
"""
END = """}
"""


def text(body: str) -> str:
    return HEAD % ("Read, Write" if "write_all" in body else "Read") + body + END


def tokens(body: str) -> str:
    binding = "let mut it" if "it.next()" in body else "let it"
    return text(f"    {binding} = input.split_ascii_whitespace();\n" + body)


REFERENCES = {
"sum-two": tokens("""    let a: i64 = it.next().unwrap().parse().unwrap();
    let b: i64 = it.next().unwrap().parse().unwrap();
    println!("{}", a + b);
"""),
"sum-list": tokens("""    let n: usize = it.next().unwrap().parse().unwrap();
    let total: i64 = it.take(n).map(|x| x.parse::<i64>().unwrap()).sum();
    println!("{}", total);
"""),
"min-max": tokens("""    let n: usize = it.next().unwrap().parse().unwrap();
    let xs: Vec<i64> = it.take(n).map(|x| x.parse().unwrap()).collect();
    println!("{} {}", xs.iter().min().unwrap(), xs.iter().max().unwrap());
"""),
"reverse-words": text("""    let line = input.lines().next().unwrap_or("");
    let words: Vec<&str> = line.split_whitespace().rev().collect();
    println!("{}", words.join(" "));
"""),
"count-vowels": text("""    let line = input.lines().next().unwrap_or("");
    println!("{}", line.chars().filter(|c| "aeiouAEIOU".contains(*c)).count());
"""),
"sort-numbers": tokens("""    let n: usize = it.next().unwrap().parse().unwrap();
    let mut xs: Vec<i64> = it.take(n).map(|x| x.parse().unwrap()).collect();
    xs.sort();
    let out: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
    println!("{}", out.join(" "));
"""),
"fizzbuzz": tokens("""    let n: u32 = it.next().unwrap().parse().unwrap();
    let mut out = String::new();
    for i in 1..=n {
        let word = if i % 15 == 0 { "FizzBuzz".to_string() } else if i % 3 == 0 { "Fizz".to_string() }
                   else if i % 5 == 0 { "Buzz".to_string() } else { i.to_string() };
        out.push_str(&word);
        out.push('\\n');
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
"""),
"primes-up-to": tokens("""    let n: usize = it.next().unwrap().parse().unwrap();
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
"""),
"matrix-transpose": tokens("""    let r: usize = it.next().unwrap().parse().unwrap();
    let c: usize = it.next().unwrap().parse().unwrap();
    let m: Vec<&str> = it.take(r * c).collect();
    let mut out = String::new();
    for j in 0..c {
        let row: Vec<&str> = (0..r).map(|i| m[i * c + j]).collect();
        out.push_str(&row.join(" "));
        out.push('\\n');
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
"""),
"gcd-lcm": tokens("""    let a: u64 = it.next().unwrap().parse().unwrap();
    let b: u64 = it.next().unwrap().parse().unwrap();
    let (mut x, mut y) = (a, b);
    while y != 0 {
        let t = x % y;
        x = y;
        y = t;
    }
    println!("{} {}", x, a / x * b);
"""),
"factorial-mod": tokens("""    let n: u64 = it.next().unwrap().parse().unwrap();
    const MOD: u64 = 1_000_000_007;
    let mut result: u64 = 1;
    for i in 2..=n {
        result = result * i % MOD;
    }
    println!("{}", result);
"""),
"palindrome": tokens("""    let s = it.next().unwrap();
    let reversed: String = s.chars().rev().collect();
    println!("{}", if reversed == s { "YES" } else { "NO" });
"""),
"letter-frequency": text("""    let line = input.lines().next().unwrap_or("");
    let mut counts = [0usize; 26];
    for c in line.chars() {
        if c.is_ascii_alphabetic() {
            counts[(c.to_ascii_lowercase() as u8 - b'a') as usize] += 1;
        }
    }
    for (k, count) in counts.iter().enumerate() {
        if *count > 0 {
            println!("{} {}", (b'a' + k as u8) as char, count);
        }
    }
"""),
"binary": tokens("""    let n: u64 = it.next().unwrap().parse().unwrap();
    println!("{:b}", n);
"""),
"word-count": tokens("""    println!("{}", it.count());
"""),
"second-largest": tokens("""    let n: usize = it.next().unwrap().parse().unwrap();
    let mut xs: Vec<i64> = it.take(n).map(|x| x.parse().unwrap()).collect();
    xs.sort();
    xs.dedup();
    if xs.len() >= 2 {
        println!("{}", xs[xs.len() - 2]);
    } else {
        println!("NONE");
    }
"""),
"fibonacci": tokens("""    let n: u32 = it.next().unwrap().parse().unwrap();
    let (mut a, mut b): (u64, u64) = (0, 1);
    for _ in 0..n {
        let t = a + b;
        a = b;
        b = t;
    }
    println!("{}", a);
"""),
"leap-years": tokens("""    let t: usize = it.next().unwrap().parse().unwrap();
    let mut out = String::new();
    for y in it.take(t).map(|x| x.parse::<u64>().unwrap()) {
        out.push_str(if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) { "YES\\n" } else { "NO\\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
"""),
"prefix-sums": tokens("""    let n: usize = it.next().unwrap().parse().unwrap();
    let mut total: i64 = 0;
    let out: Vec<String> = it.take(n).map(|x| {
        total += x.parse::<i64>().unwrap();
        total.to_string()
    }).collect();
    println!("{}", out.join(" "));
"""),
"anagram": tokens("""    let mut a: Vec<char> = it.next().unwrap().chars().collect();
    let mut b: Vec<char> = it.next().unwrap().chars().collect();
    a.sort();
    b.sort();
    println!("{}", if a == b { "YES" } else { "NO" });
"""),
"digit-sum": tokens("""    let total: u32 = it.next().unwrap().chars().map(|d| d.to_digit(10).unwrap()).sum();
    println!("{}", total);
"""),
"count-distinct": tokens("""    let n: usize = it.next().unwrap().parse().unwrap();
    let seen: std::collections::HashSet<i64> = it.take(n).map(|x| x.parse().unwrap()).collect();
    println!("{}", seen.len());
"""),
"collatz-steps": tokens("""    let mut n: u64 = it.next().unwrap().parse().unwrap();
    let mut steps = 0;
    while n != 1 {
        n = if n % 2 == 0 { n / 2 } else { 3 * n + 1 };
        steps += 1;
    }
    println!("{}", steps);
"""),
"max-subarray": tokens("""    let n: usize = it.next().unwrap().parse().unwrap();
    let xs: Vec<i64> = it.take(n).map(|x| x.parse().unwrap()).collect();
    let (mut best, mut current) = (xs[0], xs[0]);
    for &x in &xs[1..] {
        current = x.max(current + x);
        best = best.max(current);
    }
    println!("{}", best);
"""),
"balanced-brackets": text("""    let s = input.lines().next().unwrap_or("").trim();
    let mut stack: Vec<char> = Vec::new();
    let mut ok = true;
    for c in s.chars() {
        match c {
            '(' | '[' | '{' => stack.push(c),
            _ => {
                let open = match c { ')' => '(', ']' => '[', _ => '{' };
                if stack.pop() != Some(open) {
                    ok = false;
                    break;
                }
            }
        }
    }
    println!("{}", if ok && stack.is_empty() { "YES" } else { "NO" });
"""),
"roman-numerals": tokens("""    let mut n: u32 = it.next().unwrap().parse().unwrap();
    let table = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
                 (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")];
    let mut out = String::new();
    for &(value, symbol) in table.iter() {
        while n >= value {
            out.push_str(symbol);
            n -= value;
        }
    }
    println!("{}", out);
"""),
"average": tokens("""    let n: usize = it.next().unwrap().parse().unwrap();
    let total: i64 = it.take(n).map(|x| x.parse::<i64>().unwrap()).sum();
    println!("{:.9}", total as f64 / n as f64);
"""),
"distance-points": tokens("""    let v: Vec<f64> = it.take(4).map(|x| x.parse().unwrap()).collect();
    println!("{:.9}", (v[2] - v[0]).hypot(v[3] - v[1]));
"""),
"celsius-to-fahrenheit": tokens("""    let n: usize = it.next().unwrap().parse().unwrap();
    let mut out = String::new();
    for c in it.take(n).map(|x| x.parse::<f64>().unwrap()) {
        out.push_str(&format!("{:.9}\\n", c * 9.0 / 5.0 + 32.0));
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
"""),
"circle": tokens("""    let r: f64 = it.next().unwrap().parse().unwrap();
    let pi = std::f64::consts::PI;
    println!("{:.9} {:.9}", pi * r * r, 2.0 * pi * r);
"""),
"quadratic-roots": tokens("""    let v: Vec<f64> = it.take(3).map(|x| x.parse().unwrap()).collect();
    let (a, b, c) = (v[0], v[1], v[2]);
    let d = (b * b - 4.0 * a * c).sqrt();
    // the numerically stable form: no cancellation between -b and d
    let q = -0.5 * (b + d.copysign(b));
    let (x1, x2) = (q / a, c / q);
    println!("{:.9} {:.9}", x1.min(x2), x1.max(x2));
"""),
"mean-stddev": tokens("""    let n: usize = it.next().unwrap().parse().unwrap();
    let xs: Vec<f64> = it.take(n).map(|x| x.parse().unwrap()).collect();
    let mean = xs.iter().sum::<f64>() / n as f64;
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n as f64;
    println!("{:.9} {:.9}", mean, var.sqrt());
"""),
"swap-case": text("""    let line = input.lines().next().unwrap_or("");
    let out: String = line.chars().map(|c| {
        if c.is_ascii_lowercase() { c.to_ascii_uppercase() } else if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c }
    }).collect();
    println!("{}", out);
"""),
"right-triangle": tokens("""    let n: usize = it.next().unwrap().parse().unwrap();
    for i in 1..=n {
        println!("{}{}", " ".repeat(n - i), "*".repeat(i));
    }
"""),
"diamond": tokens("""    let n: usize = it.next().unwrap().parse().unwrap();
    for k in (1..=n).chain((1..n).rev()) {
        println!("{}{}", " ".repeat(n - k), "*".repeat(2 * k - 1));
    }
"""),
"multiplication-table": tokens("""    let n: usize = it.next().unwrap().parse().unwrap();
    let width = (n * n).to_string().len();
    for i in 1..=n {
        let row: Vec<String> = (1..=n).map(|j| format!("{:>w$}", i * j, w = width)).collect();
        println!("{}", row.join(" "));
    }
"""),
"score-table": tokens("""    let n: usize = it.next().unwrap().parse().unwrap();
    let rows: Vec<(&str, &str)> = (0..n).map(|_| (it.next().unwrap(), it.next().unwrap())).collect();
    let w = rows.iter().map(|r| r.0.len()).max().unwrap();
    let v = rows.iter().map(|r| r.1.len()).max().unwrap();
    for (name, score) in rows {
        println!("{:<w$} | {:>v$}", name, score, w = w, v = v);
    }
"""),
"caesar-cipher": text("""    let mut lines = input.lines();
    let k: u8 = lines.next().unwrap().trim().parse().unwrap();
    let out: String = lines.next().unwrap_or("").chars().map(|c| {
        if c.is_ascii_lowercase() { ((c as u8 - b'a' + k) % 26 + b'a') as char }
        else if c.is_ascii_uppercase() { ((c as u8 - b'A' + k) % 26 + b'A') as char } else { c }
    }).collect();
    println!("{}", out);
"""),
"greeting": text("""    let name = input.lines().next().unwrap_or("");
    print!("Hello, {}!\\n", name);
"""),
"csv-join": tokens("""    let n: usize = it.next().unwrap().parse().unwrap();
    let values: Vec<&str> = it.take(n).collect();
    print!("{}\\n", values.join(","));
"""),
"seconds-to-clock": tokens("""    let s: u32 = it.next().unwrap().parse().unwrap();
    print!("{:02}:{:02}:{:02}\\n", s / 3600, s / 60 % 60, s % 60);
"""),
"date-iso": text("""    let parts: Vec<u32> = input.trim().split('/').map(|x| x.parse().unwrap()).collect();
    print!("{:04}-{:02}-{:02}\\n", parts[2], parts[1], parts[0]);
"""),
}
