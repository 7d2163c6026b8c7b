package form

import (
	"fmt"
	"strings"

	"github.com/benchy-eval/benchy/internal/yamlnode"
)

// SetTask switches the document's task, keeping what fits the new one: a single language
// becomes translate's source, a source the other tasks' language. What it has to add (a
// target, a language nobody wrote) it names in the notice it returns, "" when it added
// nothing, so that no value appears in the YAML unannounced.
func (d *Doc) SetTask(task string) (notice string) {
	var added []string
	switch {
	case task == "translate" && d.Task != "translate":
		d.Source, d.Language = d.Language, ""
		if d.Source == "" {
			d.Source = "es"
			added = append(added, "benchmark.language.source: es")
		}
		d.Target = "en"
		if d.Source == "en" {
			d.Target = "es"
		}
		added = append(added, "benchmark.language.target: "+d.Target)
	case task != "translate" && d.Task == "translate":
		d.Language, d.Source, d.Target = d.Source, "", ""
		if d.Language == "" {
			d.Language = "en"
			added = append(added, "benchmark.language: en")
		}
	}
	d.Task = task
	if len(added) == 0 {
		return ""
	}
	return "Switching to " + task + " added " + strings.Join(added, ", ") + ": check it."
}

// Paused is why the form cannot be used on a YAML text, "" when it can: the first parse
// diagnostic as the CLI prints it (line:column: code: message), a duplicate key as
// duplicate_key at its line, since writing the form back would drop the second occurrence.
func Paused(src string) string {
	root, ds, _ := yamlnode.Parse([]byte(src), yamlnode.Options{})
	if len(ds) > 0 {
		return ds.Sort()[0].String()
	}
	if root == nil {
		return "the YAML does not parse"
	}
	// FromYAML reads the text with its comments; some it cannot place (inside a flow
	// collection, around ---), and writing the form back would drop them all.
	if _, ds, _ := yamlnode.Parse([]byte(src), yamlnode.Options{Comments: true}); len(ds) > 0 {
		d := ds.Sort()[0]
		return fmt.Sprintf("the form cannot keep this file's comments: one near line %d cannot stay where it is (inside a flow {…} or […], or around ---); move it, or edit in the YAML", d.Line)
	}
	return ""
}
