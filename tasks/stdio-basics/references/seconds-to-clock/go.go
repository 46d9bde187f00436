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
	s, _ := strconv.Atoi(next())
	fmt.Printf("%02d:%02d:%02d\n", s/3600, s/60%60, s%60)
}
