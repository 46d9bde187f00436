package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	in.Split(bufio.ScanWords)
	next := func() string { in.Scan(); return in.Text() }
	r, _ := strconv.ParseFloat(next(), 64)
	fmt.Printf("%.9f %.9f\n", math.Pi*r*r, 2*math.Pi*r)
}
