package web

import (
	"strings"
	"testing"
)

// The worker patch must apply to the go-app version in use: if go-app changes its worker,
// this fails instead of silently keeping the incomplete install.
func TestServiceWorkerWaitsForCache(t *testing.T) {
	if !strings.Contains(serviceWorker, "event.waitUntil(installWorker()") || strings.Contains(serviceWorker, workerInstall) ||
		!strings.Contains(serviceWorker, workerMatchPages) || strings.Contains(serviceWorker, workerMatch) {
		t.Fatal("the service worker's install handler was not replaced: go-app's worker changed")
	}
	h := Handler("v1", 100)
	for _, p := range append(Pages[1:], "/web/icon.svg") {
		found := false
		for _, c := range h.CacheableResources {
			found = found || c == p
		}
		if !found {
			t.Errorf("%s is not cached for offline use", p)
		}
	}
}
