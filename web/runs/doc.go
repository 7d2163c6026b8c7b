// Package runs is the runs page (/runs?benchmark=PATH[&run=ID]): pick a workspace
// benchmark, see which binding its AI-system uses, start a run, follow it live from the
// server's event stream (or by polling when the stream fails), cancel or resume it, and
// pick two runs to compare. Its remote values are ui.Loads; the followed run (liveRun) is
// a stream, kept apart.
package runs
