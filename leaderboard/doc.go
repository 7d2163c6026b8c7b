// Package leaderboard ranks the AI-systems that took one benchmark (one benchmark hash)
// on one dataset (one dataset digest): for each system (store's system hash) its latest
// completed full run, by score, with the score's interval, the paired difference to the
// leader (compare.Paired) and what the run's report records. It also selects pages of the
// examples those runs share, for the example grid.
//
// It reads the store's result columns alone (store.Outcomes), never the results' JSON,
// and keeps what it read of a completed run (which never changes) in a bounded Cache, so
// a board whose runs were all read before costs no result read. The server's
// GET /api/leaderboard, `benchy leaderboard` and a multi-system `benchy run` share Build
// and WriteText.
package leaderboard
