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
	var out strings.Builder
	for _, ch := range strings.SplitN(input, "\n", 2)[0] {
		switch {
		case ch >= 'a' && ch <= 'z':
			out.WriteRune(ch - 32)
		case ch >= 'A' && ch <= 'Z':
			out.WriteRune(ch + 32)
		default:
			out.WriteRune(ch)
		}
	}
	fmt.Println(out.String())
}
