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
	width := len(strconv.Itoa(n * n))
	for i := 1; i <= n; i++ {
		row := make([]string, n)
		for j := 1; j <= n; j++ {
			row[j-1] = fmt.Sprintf("%*d", width, i*j)
		}
		fmt.Println(strings.Join(row, " "))
	}
}
