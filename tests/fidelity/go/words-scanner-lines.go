package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"
)

func main() {
	counts := map[string]int{}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	for sc.Scan() {
		for _, w := range strings.Fields(sc.Text()) {
			counts[strings.ToLower(w)]++
		}
	}
	words := make([]string, 0, len(counts))
	for w := range counts {
		words = append(words, w)
	}
	sort.Slice(words, func(i, j int) bool {
		if counts[words[i]] != counts[words[j]] {
			return counts[words[i]] > counts[words[j]]
		}
		return words[i] < words[j]
	})
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for _, word := range words {
		fmt.Fprintf(w, "%s %d\n", word, counts[word])
	}
}
