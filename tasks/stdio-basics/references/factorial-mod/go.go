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
	n, _ := strconv.ParseInt(next(), 10, 64)
	const mod = 1000000007
	result := int64(1)
	for i := int64(2); i <= n; i++ {
		result = result * i % mod
	}
	fmt.Println(result)
}
