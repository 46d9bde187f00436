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
	v := make([]float64, 4)
	for i := range v {
		v[i], _ = strconv.ParseFloat(next(), 64)
	}
	fmt.Printf("%.9f\n", math.Hypot(v[2]-v[0], v[3]-v[1]))
}
