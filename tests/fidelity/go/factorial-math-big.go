package main

import (
	"fmt"
	"math/big"
)

func main() {
	var n int64
	fmt.Scan(&n)
	f := big.NewInt(1)
	for i := int64(2); i <= n; i++ {
		f.Mul(f, big.NewInt(i))
	}
	fmt.Println(f.String())
}
