package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	in.Split(bufio.ScanWords)
	next := func() string { in.Scan(); return in.Text() }
	n, _ := strconv.Atoi(next())
	xs := make([]int64, n)
	for i := range xs {
		xs[i], _ = strconv.ParseInt(next(), 10, 64)
	}
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	out := make([]string, n)
	for i, x := range xs {
		out[i] = strconv.FormatInt(x, 10)
	}
	fmt.Println(strings.Join(out, " "))
}
