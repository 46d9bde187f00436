package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"sync"
)

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Split(bufio.ScanWords)
	sc.Scan()
	n, _ := strconv.Atoi(sc.Text())
	nums := make([]int64, 0, n)
	for len(nums) < n && sc.Scan() {
		v, _ := strconv.ParseInt(sc.Text(), 10, 64)
		nums = append(nums, v)
	}
	const workers = 4
	results := make(chan int64, workers)
	var wg sync.WaitGroup
	chunk := (len(nums) + workers - 1) / workers
	for w := 0; w < workers; w++ {
		lo, hi := w*chunk, (w+1)*chunk
		if lo > len(nums) {
			lo = len(nums)
		}
		if hi > len(nums) {
			hi = len(nums)
		}
		wg.Add(1)
		go func(part []int64) {
			defer wg.Done()
			var s int64
			for _, x := range part {
				s += x
			}
			results <- s
		}(nums[lo:hi])
	}
	wg.Wait()
	close(results)
	var total int64
	for s := range results {
		total += s
	}
	fmt.Println(total)
}
