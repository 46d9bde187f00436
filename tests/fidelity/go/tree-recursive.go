package main

import (
	"bufio"
	"fmt"
	"os"
)

var adj [][]int

func height(u, parent int) int {
	best := 0
	for _, v := range adj[u] {
		if v != parent {
			if h := height(v, u) + 1; h > best {
				best = h
			}
		}
	}
	return best
}

func main() {
	in := bufio.NewReader(os.Stdin)
	var n int
	fmt.Fscan(in, &n)
	adj = make([][]int, n+1)
	for i := 0; i < n-1; i++ {
		var u, v int
		fmt.Fscan(in, &u, &v)
		adj[u] = append(adj[u], v)
		adj[v] = append(adj[v], u)
	}
	fmt.Println(height(1, 0))
}
