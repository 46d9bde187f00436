package main

import (
	"bufio"
	"os"
	"strconv"
)

var reader = bufio.NewReaderSize(os.Stdin, 1<<20)
var writer = bufio.NewWriterSize(os.Stdout, 1<<20)

func readInt() int64 {
	c, _ := reader.ReadByte()
	for c == ' ' || c == '\n' || c == '\r' {
		c, _ = reader.ReadByte()
	}
	neg := false
	if c == '-' {
		neg = true
		c, _ = reader.ReadByte()
	}
	var x int64
	for c >= '0' && c <= '9' {
		x = x*10 + int64(c-'0')
		c, _ = reader.ReadByte()
	}
	if neg {
		return -x
	}
	return x
}

func main() {
	defer writer.Flush()
	n, q := int(readInt()), int(readInt())
	pre := make([]int64, n+1)
	for i := 1; i <= n; i++ {
		pre[i] = pre[i-1] + readInt()
	}
	for ; q > 0; q-- {
		l, r := readInt(), readInt()
		writer.WriteString(strconv.FormatInt(pre[r]-pre[l-1], 10))
		writer.WriteByte('\n')
	}
}
