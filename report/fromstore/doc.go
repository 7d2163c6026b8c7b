// Package fromstore reads what the HTML report shows of stored runs out of a workspace's
// store: each run's record, charts, health and first failing examples, grouped by
// benchmark, with the leaderboards of their datasets. `benchy report` and the server's
// GET /api/report both call Gather, so the file is the same whichever wrote it; the
// report package itself stays free of the store.
package fromstore
