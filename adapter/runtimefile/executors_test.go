package runtimefile

import (
	"reflect"
	"testing"
)

func TestParseExecutors(t *testing.T) {
	f := parseOK(t, `executors:
  cluster:
    kind: slurm
    partition: debug
    time: "1:00:00"
    sbatch_args: [--account=lab, --gres=gpu:1]
    shards: 8
    out_dir: /shared/benchy
  small: {kind: slurm}
`)
	want := []Executor{
		{Name: "cluster", Kind: ExecutorSlurm, Partition: "debug", Time: "1:00:00", SbatchArgs: []string{"--account=lab", "--gres=gpu:1"}, Shards: 8, OutDir: "/shared/benchy"},
		// A minimal entry: the default shards written out, the rest the cluster's.
		{Name: "small", Kind: ExecutorSlurm, Shards: DefaultShards},
	}
	if !reflect.DeepEqual(f.Executors, want) {
		t.Errorf("executors =\n %#v\nwant\n %#v", f.Executors, want)
	}
	if s := f.Executors[0].String(); s != `executor "cluster" (slurm)` {
		t.Errorf("String = %q: it shows the name and kind only", s)
	}
}

func TestParseExecutorsErrors(t *testing.T) {
	checkRefusals(t, []refusal{
		{"unknown key", "executors:\n  c:\n    kind: slurm\n    partiton: debug\n", []string{`executor "c": unknown key "partiton"; an executor has the keys kind, partition, time, sbatch_args, shards, out_dir`}, 4, "partition"},
		{"bad kind", "executors:\n  c:\n    kind: kubernetes\n", []string{`executor "c": unknown kind "kubernetes"; write slurm`}, 3, ""},
		{"a misspelt kind", "executors:\n  c:\n    kind: slrum\n", []string{`executor "c": unknown kind "slrum"`}, 3, "slurm"},
		{"a misspelt kind key is not also a missing kind", "executors:\n  c:\n    kidn: slurm\n", []string{`unknown key "kidn"`}, 3, "kind"},
		{"no kind", "executors:\n  c:\n    shards: 2\n", []string{`executor "c" has no kind; write kind: slurm`}, 2, ""},
		{"zero shards", "executors:\n  c:\n    kind: slurm\n    shards: 0\n", []string{`executor "c": shards must be at least 1; found 0`}, 4, ""},
		{"shards not a number", "executors:\n  c:\n    kind: slurm\n    shards: four\n", []string{`executor "c": shards must be a whole number of at least 1`}, 4, ""},
		{"too many shards", "executors:\n  c:\n    kind: slurm\n    shards: 5000\n", []string{`executor "c": shards must be at most 1000`}, 4, ""},
		{"sbatch_args as a string", "executors:\n  c:\n    kind: slurm\n    sbatch_args: --account=lab\n", []string{`executor "c": sbatch_args must be a list of sbatch options`}, 4, ""},
		{"an sbatch arg that is not an option", "executors:\n  c:\n    kind: slurm\n    sbatch_args: [--account=lab, lab]\n", []string{`executor "c": sbatch_args[1] must be one sbatch option`}, 4, ""},
		{"an empty partition", "executors:\n  c:\n    kind: slurm\n    partition: ''\n", []string{`executor "c": partition must be a non-empty string`}, 4, ""},
		{"local is this machine", "executors:\n  local:\n    kind: slurm\n", []string{"other than local"}, 2, ""},
		{"executors as a list", "executors: [c]\n", []string{"executors must map executor names"}, 1, ""},
		{"an executor that is not a mapping", "executors:\n  c: slurm\n", []string{`executor "c" must be a mapping`}, 2, ""},
		{"a misspelt top key", "executor:\n  c: {kind: slurm}\n", []string{`unknown key "executor"`}, 1, "executors"},
	}, "")
}
