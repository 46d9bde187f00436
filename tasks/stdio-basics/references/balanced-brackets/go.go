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
	s := strings.TrimSpace(strings.SplitN(input, "\n", 2)[0])
	pairs := map[rune]rune{')': '(', ']': '[', '}': '{'}
	stack := []rune{}
	ok := true
	for _, ch := range s {
		if strings.ContainsRune("([{", ch) {
			stack = append(stack, ch)
		} else if len(stack) == 0 || stack[len(stack)-1] != pairs[ch] {
			ok = false
			break
		} else {
			stack = stack[:len(stack)-1]
		}
	}
	if ok && len(stack) == 0 {
		fmt.Println("YES")
	} else {
		fmt.Println("NO")
	}
}
