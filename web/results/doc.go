// Package results is the results page (/results?run=ID[&status=S]): a run's score and
// interval, its counts by status, accuracy per dimension, its examples a page at a time
// (keyset pages from the server), and its exports.
package results
