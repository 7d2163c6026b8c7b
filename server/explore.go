package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/benchy-eval/benchy/api"
)

// exampleDetail is GET /api/runs/{id}/results/{index}: one example in full (each value up
// to api.MaxDetail), the URL of each artifact it references that the artifact endpoint
// serves (and why not, for the others), and its neighbours under the filter of the query.
func (s *Server) exampleDetail(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	index, err := strconv.Atoi(r.PathValue("index"))
	if err != nil || index < 0 {
		return refuse(http.StatusBadRequest, api.BadRequest, "the example index must be an integer of at least 0")
	}
	ex, err := s.exampleOf(r.Context(), id, index, r.URL.Query())
	if err != nil {
		return err
	}
	out := api.ExampleDetail{Result: ex.d.Shown.Wire(), Prev: ex.d.Prev, Next: ex.d.Next, Request: ex.d.Request}
	if ex.d.Input == nil { // read from the dataset: clipped here
		var clipped [2]bool
		out.Input, clipped[0] = clipDetail(ex.input)
		out.Expected, clipped[1] = clipDetail(ex.expected)
		out.Clipped = out.Clipped || clipped[0] || clipped[1]
	}
	t := ex.target()
	for _, ref := range t.refs {
		if _, done := out.Artifacts[ref.value]; done {
			continue // the first reference of a value is the one served (sameArtifact)
		}
		if _, done := out.ArtifactNotes[ref.value]; done {
			continue
		}
		f, no := s.openArtifact(t, ref)
		if no != nil {
			if out.ArtifactNotes == nil {
				out.ArtifactNotes = map[string]string{}
			}
			out.ArtifactNotes[ref.value] = fmt.Sprintf("%s %s %s", ref.side, api.DimensionKey(ref.path), no.why)
			continue
		}
		f.Close()
		if out.Artifacts == nil {
			out.Artifacts = map[string]string{}
		}
		out.Artifacts[ref.value] = api.ArtifactPath(ex.run.ID, index, ref.value)
	}
	return writeJSON(w, http.StatusOK, out)
}

// clipDetail is raw when it fits in api.MaxDetail, else a JSON string of its start and a
// marker, and true.
func clipDetail(raw json.RawMessage) (json.RawMessage, bool) {
	if len(raw) <= api.MaxDetail {
		return raw, false
	}
	text, _ := json.Marshal(fmt.Sprintf("%s… [clipped: %d bytes of JSON in all; the first %d shown]", raw[:api.MaxDetail], len(raw), api.MaxDetail))
	return text, true
}
