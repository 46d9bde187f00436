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
	seen := map[string]bool{}
	for i := 0; i < n; i++ {
		x, _ := strconv.ParseInt(next(), 10, 64)
		seen[strconv.FormatInt(x, 10)] = true
	}
	fmt.Println(len(seen))
}
