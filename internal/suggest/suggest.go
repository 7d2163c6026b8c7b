// Package suggest finds the "did you mean" candidate for a misspelt word.
package suggest

import "strings"

// Closest returns the candidate nearest to word, or "" when none is near enough to be a
// plausible typo. A case-insensitive exact match wins; otherwise the smallest edit distance
// (Levenshtein, with adjacent transpositions) within a third of the word's length, at least
// one and at most three edits. Ties go to the earlier candidate, so the result is stable.
func Closest(word string, candidates []string) string {
	if word == "" {
		return ""
	}
	for _, c := range candidates {
		if strings.EqualFold(c, word) {
			return c
		}
	}
	limit := min(max(len([]rune(word))/3, 1), 3)
	best, bestDist := "", limit+1
	lw := strings.ToLower(word)
	for _, c := range candidates {
		d := distance(lw, strings.ToLower(c))
		if d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// distance is the optimal string alignment distance between a and b, counted in runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) == 0 {
		return len(rb)
	}
	if len(rb) == 0 {
		return len(ra)
	}
	// Three rolling rows: two back (for transpositions), previous and current.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
