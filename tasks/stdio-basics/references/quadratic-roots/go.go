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
	a, _ := strconv.ParseFloat(next(), 64)
	b, _ := strconv.ParseFloat(next(), 64)
	c, _ := strconv.ParseFloat(next(), 64)
	d := math.Sqrt(b*b - 4*a*c)
	// the numerically stable form: no cancellation between -b and d
	q := -0.5 * (b + math.Copysign(d, b))
	x1, x2 := q/a, c/q
	fmt.Printf("%.9f %.9f\n", math.Min(x1, x2), math.Max(x1, x2))
}
