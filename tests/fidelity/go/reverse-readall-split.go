package main

import (
	"io"
	"os"
	"strings"
)

func main() {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		panic(err)
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	lines := strings.Split(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var sb strings.Builder
	for i := len(lines) - 1; i >= 0; i-- {
		sb.WriteString(lines[i])
		sb.WriteByte('\n')
	}
	os.Stdout.WriteString(sb.String())
}
