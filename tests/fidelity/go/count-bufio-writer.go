package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	var n int
	fmt.Fscan(in, &n)
	buf := make([]byte, 0, 16)
	for i := 1; i <= n; i++ {
		buf = strconv.AppendInt(buf[:0], int64(i), 10)
		buf = append(buf, '\n')
		out.Write(buf)
	}
}
