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
	parts := strings.Split(strings.TrimSpace(input), "/")
	d, _ := strconv.Atoi(parts[0])
	m, _ := strconv.Atoi(parts[1])
	y, _ := strconv.Atoi(parts[2])
	fmt.Printf("%04d-%02d-%02d\n", y, m, d)
}
