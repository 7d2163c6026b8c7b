// Package grid is the example grid (/leaderboard/examples?benchmark=PATH[&dataset=D]
// [&filter=disagree|all_wrong][&status=S]): a page of a leaderboard's examples, each with its
// input, its expected output and every ranked AI-system's prediction side by side, each field
// marked right or wrong, and why an example has no prediction. The server filters and pages
// (GET /api/leaderboard/examples); the page holds one page of examples, never a run.
package grid
