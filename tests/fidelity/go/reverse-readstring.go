package main

import (
	"bufio"
	"io"
	"os"
	"strings"
)

func main() {
	reader := bufio.NewReader(os.Stdin)
	var lines []string
	for {
		line, err := reader.ReadString('\n')
		if len(line) > 0 {
			lines = append(lines, strings.TrimRight(line, "\r\n"))
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(err)
		}
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for i := len(lines) - 1; i >= 0; i-- {
		w.WriteString(lines[i])
		w.WriteString("\n")
	}
}
