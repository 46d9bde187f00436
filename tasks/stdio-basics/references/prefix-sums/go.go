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
	out := make([]string, n)
	var total int64
	for i := range out {
		x, _ := strconv.ParseInt(next(), 10, 64)
		total += x
		out[i] = strconv.FormatInt(total, 10)
	}
	fmt.Println(strings.Join(out, " "))
}
