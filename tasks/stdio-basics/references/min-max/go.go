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
	lo, _ := strconv.ParseInt(next(), 10, 64)
	hi := lo
	for i := 1; i < n; i++ {
		x, _ := strconv.ParseInt(next(), 10, 64)
		if x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		}
	}
	fmt.Println(lo, hi)
}
