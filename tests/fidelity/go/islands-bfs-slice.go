package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

type point struct{ r, c int }

func main() {
	in := bufio.NewReader(os.Stdin)
	var rows, cols int
	fmt.Fscan(in, &rows, &cols)
	grid := make([][]byte, rows)
	for i := range grid {
		var line string
		fmt.Fscan(in, &line)
		grid[i] = []byte(strings.TrimSpace(line))
	}
	count := 0
	dirs := []point{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			if grid[r][c] != '#' {
				continue
			}
			count++
			grid[r][c] = '.'
			queue := []point{{r, c}}
			for len(queue) > 0 {
				p := queue[0]
				queue = queue[1:]
				for _, d := range dirs {
					nr, nc := p.r+d.r, p.c+d.c
					if nr >= 0 && nr < rows && nc >= 0 && nc < cols && grid[nr][nc] == '#' {
						grid[nr][nc] = '.'
						queue = append(queue, point{nr, nc})
					}
				}
			}
		}
	}
	fmt.Println(count)
}
