// Package live follows runs while the server runs them: a run's record, then its event
// stream (or, when the stream fails, its record every second) until it ends. The runs page
// follows the run it shows, or the runs one launch started, side by side; the leaderboard
// follows the runs its "Run every system" started and reads the board again when they end.
// Card draws one followed run among several; a page draws a run alone as it likes.
package live
