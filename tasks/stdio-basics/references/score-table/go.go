package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	in.Split(bufio.ScanWords)
	next := func() string { in.Scan(); return in.Text() }
	n, _ := strconv.Atoi(next())
	names, scores := make([]string, n), make([]string, n)
	w, v := 0, 0
	for i := 0; i < n; i++ {
		names[i], scores[i] = next(), next()
		if len(names[i]) > w {
			w = len(names[i])
		}
		if len(scores[i]) > v {
			v = len(scores[i])
		}
	}
	for i := 0; i < n; i++ {
		fmt.Printf("%-*s | %*s\n", w, names[i], v, scores[i])
	}
}
