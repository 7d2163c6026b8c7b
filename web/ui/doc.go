// Package ui is the browser app's kit, shared by every page: the shell (the top bar and the
// server's status), the formatters that write numbers, scores and times for people, the
// links between pages, how an API error reads, and Load, the one type of a value the page
// asks the server for (loading, failed or there, and only the newest answer taken).
//
// A page is a folder of its own (web/editor, web/runs, ...) that imports this kit and the
// typed client (web/client); web/routes.go registers each. The kit knows no page.
package ui
