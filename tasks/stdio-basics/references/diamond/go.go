package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	in.Split(bufio.ScanWords)
	next := func() string { in.Scan(); return in.Text() }
	n, _ := strconv.Atoi(next())
	line := func(k int) { fmt.Println(strings.Repeat(" ", n-k) + strings.Repeat("*", 2*k-1)) }
	for k := 1; k <= n; k++ {
		line(k)
	}
	for k := n - 1; k >= 1; k-- {
		line(k)
	}
}
