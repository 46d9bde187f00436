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
	name := strings.TrimRight(strings.SplitN(input, "\n", 2)[0], "\r")
	fmt.Printf("Hello, %s!\n", name)
}
