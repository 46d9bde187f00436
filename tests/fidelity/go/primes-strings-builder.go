package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

func main() {
	var n int
	fmt.Scan(&n)
	composite := make([]bool, n+1)
	var sb strings.Builder
	count := 0
	for i := 2; i <= n; i++ {
		if composite[i] {
			continue
		}
		if count > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(strconv.Itoa(i))
		count++
		for j := i * i; j <= n; j += i {
			composite[j] = true
		}
	}
	fmt.Fprintf(os.Stdout, "%d\n%s\n", count, sb.String())
}
