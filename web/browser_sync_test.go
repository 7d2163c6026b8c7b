package web_test

import (
	"strings"
	"testing"
	"time"
)

// TestBrowserFormAndYAMLStayInSync edits one side and checks the other, where they used to
// drift: a value removed from the YAML must leave the form, a renamed output field keeps its
// weight, the comment heading a file survives a form edit, and the form waits while the YAML
// does not parse.
func TestBrowserFormAndYAMLStayInSync(t *testing.T) {
	requireBrowser(t)
	srv := sharedServer(t)
	b := newBrowser(t, 60*time.Second)
	editor(t, b, srv)
	yamlHas := func(what, s string) {
		t.Helper()
		poll[bool](b, what, `document.getElementById("yaml").value.includes(`+js(s)+`)`, 3*time.Second,
			`"YAML: " + JSON.stringify(document.getElementById("yaml").value)`)
	}
	inputIs := func(what, selector, want string) {
		t.Helper()
		poll[bool](b, what, `(document.querySelector(`+js(selector)+`) || {}).value === `+js(want), 3*time.Second,
			`"value: " + JSON.stringify((document.querySelector(`+js(selector)+`) || {}).value)`)
	}

	good := "# Header comment: kept.\n" + invoiceYAML(t)
	b.setYAML(good)
	b.waitValid("")
	inputIs("the form to show the domain", "#domain", "finance")

	// Removing values in the YAML empties their inputs.
	b.setYAML(strings.Replace(strings.Replace(good, "  domain: finance\n", "", 1), "    total: 5\n", "", 1))
	inputIs("the domain input to empty", "#domain", "")
	inputIs("total's weight to empty", `#weights input[data-path="total"]`, "")

	// Renaming an output field in the form keeps its weight, and a form edit keeps the header.
	b.setYAML(good)
	inputIs("total's weight", `#weights input[data-path="total"]`, "5")
	b.setControl(outputRow(5)+"input.name", "grand_total")
	yamlHas("the renamed field with its weight", "    grand_total: 5\n")
	yamlHas("the header comment after a form edit", "# Header comment: kept.\n")

	// While the YAML does not parse, the form is paused and cannot overwrite it.
	broken := strings.Replace(good, "program:\n", "program: [\n", 1)
	b.setYAML(broken)
	poll[bool](b, "the form to pause", `document.getElementById("form-paused") !== null && document.querySelector("fieldset.paused").disabled`, 3*time.Second, editorStateJS)
	if got := eval[string](b, `document.getElementById("yaml").value`); got != broken {
		t.Errorf("the unparsable text was changed: %q", got)
	}
	b.setYAML(good)
	poll[bool](b, "the form to come back", `document.getElementById("form-paused") === null`, 3*time.Second, editorStateJS)
}
