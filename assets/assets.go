package assets

import "embed"

// Web holds the folder web/: served by `benchy serve` under /web/.
//
//go:embed web
var Web embed.FS
