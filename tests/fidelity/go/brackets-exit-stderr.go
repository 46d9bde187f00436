package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

func balanced(s string) bool {
	pairs := map[rune]rune{')': '(', ']': '[', '}': '{'}
	stack := []rune{}
	for _, ch := range s {
		switch ch {
		case '(', '[', '{':
			stack = append(stack, ch)
		case ')', ']', '}':
			if len(stack) == 0 || stack[len(stack)-1] != pairs[ch] {
				return false
			}
			stack = stack[:len(stack)-1]
		}
	}
	return len(stack) == 0
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	w := bufio.NewWriter(os.Stdout)
	lines := 0
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if balanced(line) {
			w.WriteString("YES\n")
		} else {
			w.WriteString("NO\n")
		}
		lines++
	}
	fmt.Fprintf(os.Stderr, "processed %d lines\n", lines)
	w.Flush()
	os.Exit(0)
}
