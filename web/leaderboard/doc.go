// Package leaderboard is the leaderboard page (/leaderboard?benchmark=PATH[&dataset=D]):
// for one benchmark and one dataset, the latest completed run of each AI-system ranked by
// score, drawn as a forest plot (score and interval per system, the leader's score dashed),
// the difference to the leader and whether it is significant, a heatmap of each system's
// accuracy per dimension, counts, tokens and latency; two rows picked open the compare page.
// An empty board offers to run every system at once, follows those runs (web/live) and reads
// the board again when they end. Without ?benchmark it lists the workspace's benchmarks,
// the files of one benchmark together. The example grid is its sibling page, web/grid.
package leaderboard
