package ui

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
)

// ReportButton is a "Download report" button of the self-contained HTML report of runs
// ids (GET /api/report), the file `benchy report` writes: a plain link that downloads it,
// or, on a server that wants the tab's token (which a link cannot send), a fetch with it
// saved through a blob under the name the answer's Content-Disposition gives. The runs are
// read from the element when it is clicked: go-app keeps a handler's first closure.
func ReportButton(id, title string, ids []string) app.UI {
	return app.A().ID(id).Class("button report").Href(api.ReportPath(ids...)).Download(client.ReportName).
		DataSet("runs", strings.Join(ids, " ")).Title(title).Text("Download report").OnClick(onReport)
}

func onReport(ctx app.Context, e app.Event) {
	if !client.HasToken() {
		return
	}
	e.PreventDefault()
	ids := strings.Fields(ctx.JSSrc().Get("dataset").Get("runs").String())
	ctx.Async(func() {
		data, name, err := client.Default.Report(ctx, ids...)
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				app.Window().Call("alert", "The report could not be downloaded: "+ErrText(err))
				return
			}
			SaveBytes(name, "text/html", data)
		})
	})
}
