package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
)

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1024*1024), 1024*1024)
	sc.Split(bufio.ScanWords)
	sc.Scan()
	n, _ := strconv.Atoi(sc.Text())
	total := 0
	for i := 0; i < n && sc.Scan(); i++ {
		v, err := strconv.Atoi(sc.Text())
		if err != nil {
			panic(err)
		}
		total += v
	}
	fmt.Println(total)
}
