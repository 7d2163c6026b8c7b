package server

import "iter"

// pull2 turns a sequence of (value, error) pairs into a next function.
func pull2[V any](seq iter.Seq2[V, error]) (func() (V, error, bool), func()) {
	return iter.Pull2(seq)
}
