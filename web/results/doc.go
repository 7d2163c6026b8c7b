// Package results is the results page (/results?run=ID): a run's score and interval (or,
// for a run that failed as infrastructure, a red banner saying why and the score greyed),
// its charts (SVG drawn from the server's counts), its examples a page at a time under a
// filter (keyset pages from the server), each example in full (&example=N), and its
// exports of what the filter selects. Every filter, the page and the example are in the
// URL.
package results
