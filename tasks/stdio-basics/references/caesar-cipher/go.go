package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

func main() {
	data, _ := io.ReadAll(os.Stdin)
	input := string(data)
	lines := strings.Split(input, "\n")
	k, _ := strconv.Atoi(strings.TrimSpace(lines[0]))
	var out strings.Builder
	for _, ch := range lines[1] {
		switch {
		case ch >= 'a' && ch <= 'z':
			out.WriteRune((ch-'a'+rune(k))%26 + 'a')
		case ch >= 'A' && ch <= 'Z':
			out.WriteRune((ch-'A'+rune(k))%26 + 'A')
		default:
			out.WriteRune(ch)
		}
	}
	fmt.Println(out.String())
}
