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
	composite := make([]bool, n+1)
	primes := []string{}
	for i := 2; i <= n; i++ {
		if composite[i] {
			continue
		}
		primes = append(primes, strconv.Itoa(i))
		for j := i * i; j <= n; j += i {
			composite[j] = true
		}
	}
	fmt.Println(strings.Join(primes, " "))
}
