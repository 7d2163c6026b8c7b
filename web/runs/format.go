package runs

import (
	"encoding/json"
)

// langLabel shows a benchmark language: "es", or "es → en" for a pair.
func langLabel(raw json.RawMessage) string {
	var code string
	if json.Unmarshal(raw, &code) == nil {
		return code
	}
	var pair struct{ Source, Target string }
	if json.Unmarshal(raw, &pair) == nil && pair.Source != "" {
		return pair.Source + " → " + pair.Target
	}
	return ""
}
