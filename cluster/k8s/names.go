package k8s

import (
	"path"
	"strconv"
	"strings"
)

// label says why s is not an RFC 1123 label of at most n characters (what Kubernetes asks
// of a Job's and a namespace's name), or "" when it is one.
func label(s string, n int) string {
	switch {
	case len(s) > n:
		return "longer than " + strconv.Itoa(n) + " characters"
	case !labelChars(s):
		return "not a DNS-1123 label (lower-case letters, digits and '-', starting and ending with a letter or digit)"
	}
	return ""
}

// subdomain says why s is not an RFC 1123 subdomain (what Kubernetes asks of a
// PersistentVolumeClaim's and a Secret's name), or "" when it is one.
func subdomain(s string) string {
	if len(s) > 253 {
		return "longer than 253 characters"
	}
	for _, part := range strings.Split(s, ".") {
		if !labelChars(part) {
			return "not a DNS-1123 subdomain (lower-case letters, digits, '-' and '.', starting and ending with a letter or digit)"
		}
	}
	return ""
}

func labelChars(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// nameOf is the Job name of a benchmark file: benchy- and the file's name without its
// extension, lower-cased, every run of other characters a '-', cut to fit.
func nameOf(bench string) string {
	base := strings.TrimSuffix(path.Base(strings.ReplaceAll(bench, "\\", "/")), path.Ext(bench))
	var b strings.Builder
	b.WriteString("benchy-")
	dash := false
	for _, c := range []byte(strings.ToLower(base)) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteByte(c)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	name := b.String()
	if len(name) > maxName {
		name = name[:maxName]
	}
	return strings.TrimRight(name, "-")
}
