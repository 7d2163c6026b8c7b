package results

import (
	"errors"
	"slices"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/benchy-eval/benchy/web/client"
)

// blob is an artifact of the example shown, fetched with the tab's token (a server that
// wants one answers a plain <img src> with 401) and shown through a blob: URL.
type blob struct {
	done bool
	url  string // the blob: URL, once fetched
	err  error  // why it is not shown; a *client.TooBig offers it to download
}

// loadBlobs fetches the artifacts of the example shown when the tab holds a token; without
// one the page links the server's URLs (audio keeps its ranges).
func (p *Page) loadBlobs(ctx app.Context) {
	p.dropBlobs()
	if !p.detail.OK || len(p.detail.Value.Artifacts) == 0 || !client.HasToken() {
		return
	}
	p.blobs = map[string]*blob{}
	srcs := make([]string, 0, len(p.detail.Value.Artifacts))
	for _, src := range p.detail.Value.Artifacts {
		srcs = append(srcs, src)
	}
	slices.Sort(srcs)
	for _, src := range slices.Compact(srcs) {
		b := &blob{}
		p.blobs[src] = b
		ctx.Async(func() {
			u, err := client.ObjectURL(ctx, src, client.MaxBlob)
			ctx.Dispatch(func(ctx app.Context) {
				if p.blobs[src] != b { // the page moved on: the URL is nobody's
					client.RevokeObjectURL(u)
					return
				}
				b.done, b.url, b.err = true, u, err
			})
		})
	}
}

// dropBlobs revokes the blob: URLs of the example shown: when another one is shown, the
// list is, or the page goes.
func (p *Page) dropBlobs() {
	for _, b := range p.blobs {
		client.RevokeObjectURL(b.url)
	}
	p.blobs = nil
}

// artifactSrc is the URL that shows the artifact the server serves at src: src itself
// without a token, else its blob once fetched; with why not otherwise.
func (p *Page) artifactSrc(src string) (u string, pending bool, err error) {
	if p.blobs == nil {
		return src, false, nil
	}
	b, ok := p.blobs[src]
	switch {
	case !ok:
		return src, false, nil
	case !b.done:
		return "", true, nil
	}
	return b.url, false, b.err
}

// tooBig is err's *client.TooBig, if it is one.
func tooBig(err error) (*client.TooBig, bool) {
	var t *client.TooBig
	ok := errors.As(err, &t)
	return t, ok
}
