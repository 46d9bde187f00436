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
	var total int64
	for i := 0; i < n; i++ {
		x, _ := strconv.ParseInt(next(), 10, 64)
		total += x
	}
	fmt.Println(total)
}
