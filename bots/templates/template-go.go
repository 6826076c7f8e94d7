// A template bot for the painting game in Go, with no arena code and the standard library only:
// copy it, rename it, make it smarter.  The arena compiles it once (go build) and runs it once per
// move in a folder of its own.  A folder bot holds main.go and the other files of package main.
//
// game.in:  N, then N rows of N tokens: '#' empty, 'B' painted, or a number.
// game.out: the count k of cells painted, then k lines "x y" (row, column, from 0).
// A legal move paints exactly one number v and v - 1 empty cells, all connected through shared
// sides, none painted and none beside a painted cell (docs/rules.md, paint).
//
// This bot paints the first number it can, with the cells a breadth-first walk from it reaches
// first (each one touches an earlier one: connected).
package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

const (
	empty   = 0
	painted = -1
)

func neighbours(i, n int) []int {
	x, y := i/n, i%n
	out := make([]int, 0, 4)
	if x > 0 {
		out = append(out, i-n)
	}
	if x+1 < n {
		out = append(out, i+n)
	}
	if y > 0 {
		out = append(out, i-1)
	}
	if y+1 < n {
		out = append(out, i+1)
	}
	return out
}

func main() {
	data, err := os.ReadFile("game.in")
	if err != nil {
		os.Exit(1)
	}
	tokens := strings.Fields(string(data))
	n, _ := strconv.Atoi(tokens[0])
	cell := make([]int, n*n) // index x * n + y: empty, painted or the number
	for i := range cell {
		switch t := tokens[i+1]; t {
		case "#":
			cell[i] = empty
		case "B":
			cell[i] = painted
		default:
			cell[i], _ = strconv.Atoi(t)
		}
	}
	// A cell can be painted when it is not painted and touches no painted cell.
	free := make([]bool, n*n)
	for i := range cell {
		free[i] = cell[i] != painted
		for _, j := range neighbours(i, n) {
			free[i] = free[i] && cell[j] != painted
		}
	}
	for start := range cell {
		if cell[start] <= 0 || !free[start] {
			continue
		}
		// Breadth-first walk from the number through free empty cells.
		order := []int{start}
		seen := make([]bool, n*n)
		seen[start] = true
		for head := 0; head < len(order) && len(order) < cell[start]; head++ {
			for _, j := range neighbours(order[head], n) {
				if !seen[j] && cell[j] == empty && free[j] {
					seen[j] = true
					order = append(order, j)
				}
			}
		}
		if len(order) < cell[start] {
			continue // not enough room: try the next number
		}
		var out strings.Builder
		fmt.Fprintf(&out, "%d\n", cell[start])
		for _, i := range order[:cell[start]] {
			fmt.Fprintf(&out, "%d %d\n", i/n, i%n)
		}
		os.WriteFile("game.out", []byte(out.String()), 0o644)
		return
	}
	os.Exit(1) // no legal move (the arena never asks then)
}
