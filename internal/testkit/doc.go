// Package testkit holds what several packages' tests share: copying an example folder into
// a test's temporary directory.
package testkit
