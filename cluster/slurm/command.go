package slurm

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// CommandTimeout bounds each Slurm command: sbatch, squeue and scancel answer in
// milliseconds (10 ms on the one-node test cluster) unless slurmctld is down, when they
// retry for about a minute; a command that cannot reach it should say so well before that.
const CommandTimeout = 30 * time.Second

// command runs a Slurm command with the process's environment (SLURM_CONF names the
// cluster) and returns its standard output; its error names the command and has what it
// wrote to standard error.
func command(ctx context.Context, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, CommandTimeout)
	defer cancel()
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return out.String(), fmt.Errorf("%s %s: no answer within %v (is slurmctld reachable?)", name, strings.Join(args, " "), CommandTimeout)
	}
	if err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return out.String(), fmt.Errorf("%s: %s", name, msg)
	}
	return out.String(), nil
}
