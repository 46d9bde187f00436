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
	n, _ := strconv.Atoi(next())
	xs := make([]float64, n)
	sum := 0.0
	for i := range xs {
		xs[i], _ = strconv.ParseFloat(next(), 64)
		sum += xs[i]
	}
	mean := sum / float64(n)
	squares := 0.0
	for _, x := range xs {
		squares += (x - mean) * (x - mean)
	}
	fmt.Printf("%.9f %.9f\n", mean, math.Sqrt(squares/float64(n)))
}
