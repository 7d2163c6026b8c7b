package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/web"
)

func main() {
	app.Window().Get("performance").Call("mark", "benchy-main") // for the browser tests' timings
	web.Routes()
	app.RunWhenOnBrowser()
}
