// Package shard is the file side of a sharded run (issue 17): one machine's part of a run
// writes DIR/shard-K-of-N/manifest.json (what was run: the IR, benchmark, dataset and
// system identities, K, N, the limit, and whether it completed) and results.jsonl (its
// journal: the engine's results stream for the shard's examples, in index order), and
// benchy merge reads every shard's back into one result document equal to a single
// machine's run.
//
// The rule for which examples a shard has is engine.Shard's (index i in shard K of N iff
// i % N == K), so a merge reads the journals round-robin, index i from shard i % N: no
// sort, and memory flat in the number of results. The report of the merge is made by
// engine.Totals, the same type a run reports with, over the same results in the same
// order. Nothing of the shards is taken on trust (Want): every manifest must carry the
// identities of the run merged, no path is taken from one, and every line is scored again
// from its prediction against the dataset (engine.Rescorer), as is every line a shard's
// own run keeps from its journal; a line is decoded only as far as a result of the
// benchmark can go (decodeWithin), and a merge is known by its lines' digest beside its
// manifests (Set.Digest). The package is pure logic and file formats: the CLI
// (internal/cli/shard.go and merge.go) runs the engine and prints.
package shard
