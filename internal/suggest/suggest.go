package suggest

import "strings"

// Closest returns the candidate nearest to word, or "" when none is near enough to be a
// plausible typo. A case-insensitive exact match wins; then the smallest edit distance
// (Levenshtein, with adjacent transpositions) within a third of the word's length, at least
// one and at most three edits, ties going to the earlier candidate; then a single candidate
// that shares a long prefix with word ("classification" → classify, "params" → parameters)
// or has it as a whole part ("support" → customer_support).
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
	if best != "" {
		return best
	}
	// One candidate of either kind, or none: a prefix of one and a part of another
	// ("media": medical, social_media) is no suggestion (the two were joined into one).
	return unique(candidates, func(c string) bool {
		lc := strings.ToLower(c)
		p := commonPrefix(lw, lc)
		return p >= 3 && 2*p >= len(lw) || hasPart(lc, lw)
	})
}

// unique returns the one candidate that ok accepts, or "" when none or several do.
func unique(candidates []string, ok func(string) bool) string {
	found := ""
	for _, c := range candidates {
		if ok(c) {
			if found != "" {
				return ""
			}
			found = c
		}
	}
	return found
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// hasPart reports whether word is one of the _- separated parts of c.
func hasPart(c, word string) bool {
	for _, part := range strings.FieldsFunc(c, func(r rune) bool { return r == '_' || r == '-' }) {
		if part == word {
			return true
		}
	}
	return false
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
