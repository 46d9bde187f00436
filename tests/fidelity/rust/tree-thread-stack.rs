use std::io::{self, Read};
use std::thread;

fn height(adj: &Vec<Vec<usize>>, u: usize, parent: usize) -> usize {
    let mut best = 0;
    for &v in &adj[u] {
        if v != parent {
            best = best.max(height(adj, v, u) + 1);
        }
    }
    best
}

fn solve() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_ascii_whitespace().map(|x| x.parse::<usize>().unwrap());
    let n = it.next().unwrap();
    let mut adj = vec![Vec::new(); n + 1];
    for _ in 0..n - 1 {
        let (u, v) = (it.next().unwrap(), it.next().unwrap());
        adj[u].push(v);
        adj[v].push(u);
    }
    println!("{}", height(&adj, 1, 0));
}

fn main() {
    let child = thread::Builder::new().stack_size(64 * 1024 * 1024).spawn(solve).unwrap();
    child.join().unwrap();
}
