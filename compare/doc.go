// Package compare sets two runs of the same benchmark side by side: the score difference
// with a paired confidence interval, the per-dimension accuracy differences and the
// examples whose outcome changed. It reads results one pair at a time, so memory does not
// grow with the runs beyond one number per example for the interval of smaller runs.
package compare
