// Package ontology is the ontology page (/ontology): the registry's tasks with their
// program rules, its domains and its languages, searchable. It shows the registry built into
// the app, so that it works offline, and the server's once the server answers.
package ontology
