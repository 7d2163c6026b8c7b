// Package suggest finds the "did you mean" candidate for a misspelt word.
package suggest
