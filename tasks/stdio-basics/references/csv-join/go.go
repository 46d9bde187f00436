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
	values := make([]string, n)
	for i := range values {
		values[i] = next()
	}
	fmt.Print(strings.Join(values, ",") + "\n")
}
