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
	n, _ := strconv.Atoi(next())
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for i := 1; i <= n; i++ {
		switch {
		case i%15 == 0:
			w.WriteString("FizzBuzz\n")
		case i%3 == 0:
			w.WriteString("Fizz\n")
		case i%5 == 0:
			w.WriteString("Buzz\n")
		default:
			w.WriteString(strconv.Itoa(i) + "\n")
		}
	}
}
