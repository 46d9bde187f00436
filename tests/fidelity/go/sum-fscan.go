package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	reader := bufio.NewReader(os.Stdin)
	var n int
	fmt.Fscan(reader, &n)
	var sum int64
	for i := 0; i < n; i++ {
		var x int64
		fmt.Fscan(reader, &x)
		sum += x
	}
	fmt.Println(sum)
}
