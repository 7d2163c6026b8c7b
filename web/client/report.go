package client

import (
	"context"
	"mime"
	"strings"

	"github.com/benchy-eval/benchy/api"
)

// ReportName is the file a report is saved as when its answer names none.
const ReportName = "benchy-report.html"

// Report reads the HTML report of runs ids with the tab's token (a link cannot send it),
// with the file name its Content-Disposition gives.
func (c *Client) Report(ctx context.Context, ids ...string) (data []byte, name string, err error) {
	res, err := fetch(ctx, "GET", api.ReportPath(ids...), nil, nil)
	if err != nil {
		return nil, "", err
	}
	if data, err = res.body(ctx); err != nil {
		return nil, "", err
	}
	return data, AttachmentName(res.value.Get("headers").Call("get", "Content-Disposition").String(), ReportName), nil
}

// AttachmentName is the file name a Content-Disposition header gives, or fallback when it
// gives none (or one with a directory in it, which a browser would not take either).
func AttachmentName(disposition, fallback string) string {
	_, params, err := mime.ParseMediaType(disposition)
	name := params["filename"]
	if err != nil || name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		return fallback
	}
	return name
}
