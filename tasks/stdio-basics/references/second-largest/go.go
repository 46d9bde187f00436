package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	in.Split(bufio.ScanWords)
	next := func() string { in.Scan(); return in.Text() }
	n, _ := strconv.Atoi(next())
	seen := map[int64]bool{}
	for i := 0; i < n; i++ {
		x, _ := strconv.ParseInt(next(), 10, 64)
		seen[x] = true
	}
	values := []int64{}
	for x := range seen {
		values = append(values, x)
	}
	sort.Slice(values, func(i, j int) bool { return values[i] < values[j] })
	if len(values) >= 2 {
		fmt.Println(values[len(values)-2])
	} else {
		fmt.Println("NONE")
	}
}
