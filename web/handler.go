package web

import (
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Handler is the go-app handler that serves the app's pages, scripts and service worker.
// version names this build of the app (browsers and the service worker cache by it);
// wasmSize is app.wasm's uncompressed size, for the loading progress.
func Handler(version string, wasmSize int64) *app.Handler {
	return &app.Handler{
		Name:         "Benchy",
		ShortName:    "Benchy",
		Title:        "Benchy",
		Description:  "Author, validate, compile and run AI benchmarks",
		Lang:         "en",
		LoadingLabel: "Loading Benchy…",
		ThemeColor:   "#1f4e79",
		Icon: app.Icon{
			Default:  "/web/icon-192.png",
			Large:    "/web/icon-512.png",
			Maskable: "/web/icon-512.png",
			SVG:      "/web/icon.svg",
		},
		Styles:                []string{"/web/benchy.css"},
		RawHeaders:            []string{wasmPreload},
		CacheableResources:    append(slices.Clone(Pages[1:]), "/web/icon.svg"),
		ServiceWorkerTemplate: serviceWorker,
		Version:               version,
		WasmContentLength:     strconv.FormatInt(wasmSize, 10),
	}
}

// wasmPreload starts fetching app.wasm as soon as the page's head is read: go-app's loader
// (app.js, a deferred script) asks for it only once the document is parsed and both scripts
// have run. The loader's fetch then takes the preloaded response (as="fetch" with
// crossorigin matches a same-origin fetch), still streamed to the compiler.
const wasmPreload = `<link rel="preload" href="/web/app.wasm" as="fetch" type="application/wasm" crossorigin>`

// serviceWorker is go-app's worker, except that installing waits until every file of the
// app is cached: go-app's own takes control at once, so a browser that went offline right
// after its first visit could be left with half an app. An install that cannot cache
// everything fails, and the next visit tries again.
//
// And a page's address with a query (/?path=..., /results?run=...) is served from the cached
// page without it, so that those pages open offline too.
var serviceWorker = strings.NewReplacer(workerInstall, workerInstallComplete, workerMatch, workerMatchPages).
	Replace(app.DefaultAppWorkerJS)

const workerMatch = `const cachedResponse = await caches.match(request);`

const workerMatchPages = `const cachedResponse = await caches.match(request, {ignoreSearch: request.mode === "navigate"});`

const workerInstall = `self.addEventListener("install", async (event) => {
  try {
    console.log("installing app worker {{.Version}}");
    await installWorker();
    await self.skipWaiting();
  } catch (error) {
    console.error("error during installation:", error);
  }
});`

const workerInstallComplete = `self.addEventListener("install", (event) => {
  event.waitUntil(installWorker().then(() => self.skipWaiting()));
});`
