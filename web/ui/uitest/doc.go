// Package uitest is what the pages' tests share, as net/http/httptest is for handlers:
// a ui.Load in the state a server's answer leaves it, and the check that a page renders in
// each state it passes through without panicking. Only tests import it; the app does not.
package uitest
