//go:build !linux

package cli

import "os"

// terminalColumns is 0 here, unknown: the bar is kept within 80 columns.
func terminalColumns(f *os.File) int { return 0 }
