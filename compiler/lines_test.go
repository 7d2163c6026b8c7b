package compiler

import "testing"

// TestTabColumns: columns count a tab as one code point, as editors number them.
func TestTabColumns(t *testing.T) {
	tests := []struct {
		src       string
		line, col int
		code      string
	}{
		{"version: \"1.0\"\nontology_version: \"1.0\"\nbenchmark:\n  task: extract\n  domain:\t\tfinanse\n", 5, 12, "unknown_domain"},
		{"version: \"1.0\"\nontology_version: \"1.0\"\nbenchmark:\n  task: extract\n  domain:\tfinanse\n", 5, 11, "unknown_domain"},
		{"version: \"1.0\"\nontology_version: \"1.0\"\nbenchmark: {task: extract, domain:\tfinanse}\n", 3, 36, "unknown_domain"},
		{"version: \"1.0\"\nbenchmark:\n\ttask: extract\n", 3, 1, "invalid_yaml"},
	}
	for _, tt := range tests {
		_, ds := Compile([]byte(tt.src))
		found := false
		for _, d := range ds {
			if string(d.Code) == tt.code {
				found = true
				if d.Line != tt.line || d.Column != tt.col {
					t.Errorf("%q: %s at %d:%d, want %d:%d", tt.src, d.Code, d.Line, d.Column, tt.line, tt.col)
				}
			}
		}
		if !found {
			t.Errorf("%q: no %s in %v", tt.src, tt.code, ds)
		}
	}
}
