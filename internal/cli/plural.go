package cli

import "fmt"

// count is n with the noun in its number: "1 example", "2 examples", "0 examples". The
// plural is the noun and an s, which every noun the CLI counts takes.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
