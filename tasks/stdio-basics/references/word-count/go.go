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
	fmt.Println(len(strings.Fields(input)))
}
