// Package runtimefile reads a runtime file (benchy.runtime.yaml): how this machine reaches
// each AI-system a benchmark may name, by a command or an HTTP endpoint, and each model
// provider. Parse turns the file's text into plain data (File) or diagnostics, every
// problem with its position, the keys leading to it and a "did you mean" where one helps;
// package adapter then binds that data to adapters, resolving commands against the file's
// folder and checking, before a run, that their programs exist.
//
// Reading is kept apart from binding so that each can be tested alone and so that what a
// file says is a value with no behaviour: the defaults are written out when parsing (a
// binding's timeout, a provider's retries), so that zero means zero and nothing downstream
// guesses whether a field was set. The YAML is read through the one strict front end,
// package internal/yamlnode, as benchmarks are. Command lines and URLs may carry secrets:
// a File shows only names when printed.
package runtimefile
