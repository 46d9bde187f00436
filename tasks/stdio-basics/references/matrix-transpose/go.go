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
	r, _ := strconv.Atoi(next())
	c, _ := strconv.Atoi(next())
	m := make([]string, r*c)
	for i := range m {
		m[i] = next()
	}
	for j := 0; j < c; j++ {
		row := make([]string, r)
		for i := 0; i < r; i++ {
			row[i] = m[i*c+j]
		}
		fmt.Println(strings.Join(row, " "))
	}
}
