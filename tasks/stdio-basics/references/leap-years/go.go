package main

import (
	"bufio"
	"os"
	"strconv"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	in.Split(bufio.ScanWords)
	next := func() string { in.Scan(); return in.Text() }
	t, _ := strconv.Atoi(next())
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for i := 0; i < t; i++ {
		y, _ := strconv.ParseInt(next(), 10, 64)
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			w.WriteString("YES\n")
		} else {
			w.WriteString("NO\n")
		}
	}
}
