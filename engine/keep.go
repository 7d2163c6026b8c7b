package engine

import "context"

// noRequest marks the context of an example whose request the run does not keep
// (Options.RecordRequests): an adapter need not render it.
type noRequest struct{}

// KeepsRequest reports whether the run keeps the request sent for the example ctx is
// of, so that an adapter renders it (Answer.Request) only then: rendering one is a copy
// of the body. A context no run made keeps it.
func KeepsRequest(ctx context.Context) bool { return ctx.Value(noRequest{}) == nil }

// WithoutRequest is ctx for an example whose request the run does not keep: what the
// engine gives an adapter for it.
func WithoutRequest(ctx context.Context) context.Context {
	return context.WithValue(ctx, noRequest{}, true)
}
