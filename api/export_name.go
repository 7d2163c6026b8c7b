package api

import (
	"net/url"
	"slices"
	"strings"
)

// maxNameFilter bounds the filter's part of an export's file name: a search or a cell's
// values could otherwise make a name no file system takes (255 bytes on most).
const maxNameFilter = 60

// nameKeys is the order in which the filter's keys name an export file; keys not in it
// (a filter key added later) follow in sorted order.
var nameKeys = []string{QStatus, QImperfect, QWrong, QCode, QText, QField, QExpected, QPredicted, QSort}

// ExportFileName is the name an export of run id in format (json, jsonl, csv) is saved
// under: the server's Content-Disposition, and a pure function so that the web's download
// can name it alike. benchy-ID.csv for the whole run; a filtered one has its filter after
// the id (query, the results query's keys and values: Filter.Values), so that two exports
// of one run are told apart and none passes for the whole run: benchy-ID-imperfect.csv, benchy-ID-wrong-total.csv,
// benchy-ID-status-valid.jsonl, benchy-ID-q.json for a search (its text is not in the
// name). Only letters, digits, '.', '_' and '-' are kept (anything else is '_'), and the
// filter's part is cut at maxNameFilter bytes.
func ExportFileName(id, format string, query url.Values) string {
	var parts []string
	add := func(k string) {
		v := query.Get(k)
		switch {
		case v == "":
		case k == QText:
			parts = append(parts, "q")
		case k == QImperfect:
			parts = append(parts, "imperfect")
		default:
			parts = append(parts, k+"-"+v)
		}
	}
	for _, k := range nameKeys {
		add(k)
	}
	var more []string
	for k := range query {
		if !slices.Contains(nameKeys, k) {
			more = append(more, k)
		}
	}
	slices.Sort(more)
	for _, k := range more {
		add(k)
	}
	name := "benchy-" + safeName(id, 64)
	if len(parts) > 0 {
		name += "-" + safeName(strings.Join(parts, "-"), maxNameFilter)
	}
	return name + "." + format
}

// safeName is s with every byte but a letter, digit, '.', '_' or '-' made '_', cut to
// max bytes; a leading '.' (a hidden file) becomes '_' too.
func safeName(s string, max int) string {
	b := []byte(s)
	if len(b) > max {
		b = b[:max]
	}
	for i, c := range b {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' && i > 0
		if !ok {
			b[i] = '_'
		}
	}
	return string(b)
}
