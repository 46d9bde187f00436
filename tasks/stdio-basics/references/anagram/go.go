package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	in.Split(bufio.ScanWords)
	next := func() string { in.Scan(); return in.Text() }
	key := func(w string) string {
		letters := strings.Split(w, "")
		sort.Strings(letters)
		return strings.Join(letters, "")
	}
	if key(next()) == key(next()) {
		fmt.Println("YES")
	} else {
		fmt.Println("NO")
	}
}
