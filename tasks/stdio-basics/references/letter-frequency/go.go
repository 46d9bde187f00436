package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	data, _ := io.ReadAll(os.Stdin)
	input := string(data)
	counts := [26]int{}
	for _, ch := range strings.ToLower(strings.SplitN(input, "\n", 2)[0]) {
		if ch >= 'a' && ch <= 'z' {
			counts[ch-'a']++
		}
	}
	for k, count := range counts {
		if count > 0 {
			fmt.Printf("%c %d\n", 'a'+k, count)
		}
	}
}
