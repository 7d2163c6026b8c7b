package client

import (
	"testing"

	"github.com/benchy-eval/benchy/api"
)

// TestSaveAnswer: a save's 412 edit_conflict carries the file as it is, which the editor
// shows beside the draft; any other refusal is an *Error as before; a success decodes the
// new version's etag.
func TestSaveAnswer(t *testing.T) {
	var f api.BenchmarkFile
	if err := saveAnswer(200, []byte(`{"path":"b.yaml","yaml":"x","ir":null,"ir_hash":"","diagnostics":[],"etag":"\"sha256:01\""}`), &f); err != nil || f.ETag != `"sha256:01"` {
		t.Errorf("success: %v, etag %q", err, f.ETag)
	}
	err := saveAnswer(412, []byte(`{"error":{"code":"edit_conflict","message":"b.yaml changed"},"yaml":"on disk\n","etag":"\"sha256:02\""}`), &f)
	c := AsConflict(err)
	if c == nil || c.YAML != "on disk\n" || c.ETag != `"sha256:02"` || !StatusIs(err, 412) || CodeOf(err) != api.EditConflict {
		t.Errorf("conflict: %#v", err)
	}
	err = saveAnswer(428, []byte(`{"error":{"code":"precondition_required","message":"b.yaml exists"}}`), &f)
	if AsConflict(err) != nil || CodeOf(err) != api.PreconditionRequired {
		t.Errorf("428: %#v", err)
	}
}
