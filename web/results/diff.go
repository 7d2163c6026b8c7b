package results

// The table's "expected → got" lines and the example view show where a wrong value
// differs: a clip from the start cut exactly the differing characters away ("Pioneer
// Analytics plc → Pioneer Anal…").

// diffContext is how many characters before the first difference a clipped pair keeps.
const diffContext = 12

// firstDiff is the index in runes of the first rune where a and b differ (the shorter's
// length when one is the start of the other), -1 when they are equal.
func firstDiff(a, b []rune) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) == len(b) {
		return -1
	}
	return min(len(a), len(b))
}

// clipPair clips expected and got to n runes each around their first difference: from
// diffContext runes before it (fewer for a small n), "…" wherever text is left out, so both sides show where
// they differ. A pair that fits, or is equal, is clipped from the start.
func clipPair(expected, got string, n int) (string, string) {
	e, g := []rune(expected), []rune(got)
	d := firstDiff(e, g)
	if d < 0 || len(e) <= n && len(g) <= n {
		return clipAt(e, 0, n), clipAt(g, 0, n)
	}
	context := min(diffContext, (n-2)/2) // the difference must fit in what is kept
	start := 0
	if d >= n-1-context { // else it shows clipped from the start
		// From context before it, or from as far back as lets the longer side's end fit.
		start = max(0, min(d-context, max(len(e), len(g))-(n-1)))
	}
	return clipAt(e, start, n), clipAt(g, start, n)
}

// clipAt is at most n runes of s from start (runes), "…" marking each end cut.
func clipAt(s []rune, start, n int) string {
	if len(s) <= n && start == 0 {
		return string(s)
	}
	start = min(start, len(s))
	out := ""
	room := n
	if start > 0 {
		out, room = "…", n-1
	}
	if len(s)-start <= room {
		return out + string(s[start:])
	}
	return out + string(s[start:start+room-1]) + "…"
}

// diffSpan splits got into the text before its first difference from expected, the
// differing run and the rest: the run is what the example view marks. The run ends where
// the two agree again from their ends (a changed word in the middle is that word); it is
// empty when got is the start of expected, and everything is before when they are equal.
func diffSpan(expected, got string) (before, differ, after string) {
	e, g := []rune(expected), []rune(got)
	d := firstDiff(e, g)
	if d < 0 {
		return got, "", ""
	}
	// The common end, not reaching back into the common start.
	tail := 0
	for tail < len(e)-d && tail < len(g)-d && e[len(e)-1-tail] == g[len(g)-1-tail] {
		tail++
	}
	return string(g[:d]), string(g[d : len(g)-tail]), string(g[len(g)-tail:])
}
