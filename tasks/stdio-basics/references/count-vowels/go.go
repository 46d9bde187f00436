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
	count := 0
	for _, ch := range strings.SplitN(input, "\n", 2)[0] {
		if strings.ContainsRune("aeiouAEIOU", ch) {
			count++
		}
	}
	fmt.Println(count)
}
