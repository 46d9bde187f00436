package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

func main() {
	r := csv.NewReader(os.Stdin)
	records, err := r.ReadAll()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sums := map[string]int{}
	counts := map[string]int{}
	for _, rec := range records[1:] {
		name := strings.TrimSpace(rec[0])
		score, _ := strconv.Atoi(strings.TrimSpace(rec[1]))
		sums[name] += score
		counts[name]++
	}
	names := make([]string, 0, len(sums))
	for name := range sums {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Printf("%s %.2f\n", name, float64(sums[name])/float64(counts[name]))
	}
}
