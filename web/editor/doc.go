// Package editor is the app's main page (/): the form, the YAML, live diagnostics and the
// IR preview. It compiles in the browser with the same compiler as the CLI, so everything
// but open, save and run works without the server; the text being edited is kept in the
// browser between visits.
//
// The page (Page) owns the text and the form's document (web/form); its panels are child
// components so that a keystroke renders only what it changed: formPanel (the form, which
// edits the document through the small document interface), the gutter (line numbers and
// diagnostic markers beside the YAML), irPanel and ontologyLists.
package editor
