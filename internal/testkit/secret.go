package testkit

import "strings"

// Leak returns a run of six or more characters of secret that text holds, or "": the
// tests that keep API keys out of logs, errors and results ask for no piece of the key,
// not only not the whole of it, since a truncated or split key still leaks.
func Leak(text, secret string) string {
	for n := len(secret); n >= 6; n-- {
		for i := 0; i+n <= len(secret); i++ {
			if strings.Contains(text, secret[i:i+n]) {
				return secret[i : i+n]
			}
		}
	}
	return ""
}
