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
	a, _ := strconv.ParseInt(next(), 10, 64)
	b, _ := strconv.ParseInt(next(), 10, 64)
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	fmt.Println(x, a/x*b)
}
