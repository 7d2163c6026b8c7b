package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
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
	ex, err := s.exampleOf(r.Context(), id, index)
	if err != nil {
		return err
	}
	f, err := checkedFilter(r.URL.Query(), ex.b)
	if err != nil {
		return err
	}
	out := api.ExampleDetail{Result: detailResult(ex.res), Prev: -1, Next: -1}
	var clipped [2]bool
	out.Input, clipped[0] = clipDetail(ex.input)
	out.Expected, clipped[1] = clipDetail(ex.expected)
	out.Clipped = out.Clipped || clipped[0] || clipped[1]
	t := artifactTarget{run: ex.run, b: ex.b, valid: ex.res.Status == engine.StatusValid,
		refs: artifactRefs(ex.b, ex.input, ex.expected, ex.res.Prediction)}
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
	if out.Prev, out.Next, err = s.neighbours(ex.run.ID, index, f); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, out)
}

// detailResult is a stored result as the detail sends it: its values whole up to
// api.MaxDetail.
func detailResult(res engine.ExampleResult) api.Result {
	out := api.Result{Index: res.Index, Status: string(res.Status), Score: res.Score, Contribution: res.Contribution,
		Error: wireResultError(res.Error), FieldScores: []api.FieldScore{}}
	for _, fs := range res.FieldScores {
		out.FieldScores = append(out.FieldScores, api.FieldScore{Path: fs.Path, Score: fs.Score, Weight: fs.Weight})
	}
	if res.Usage != nil {
		out.Usage = &api.ExampleUsage{InputTokens: res.Usage.InputTokens, OutputTokens: res.Usage.OutputTokens, LatencyMS: res.Usage.LatencyMS}
	}
	pred, err := json.Marshal(res.Prediction)
	if err != nil {
		pred = []byte("null")
	}
	out.Prediction, out.Clipped = clipDetail(pred)
	if out.Error != nil && len(out.Error.Message) > api.MaxDetail {
		out.Error.Message, out.Clipped = out.Error.Message[:api.MaxDetail]+"… [clipped]", true
	}
	return out
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

// neighbours are the examples before and after index among those f selects (-1 at an end).
func (s *Server) neighbours(id string, index int, f api.Filter) (prev, next int, err error) {
	return -1, -1, nil // the store's filtered walk is not in yet
}
