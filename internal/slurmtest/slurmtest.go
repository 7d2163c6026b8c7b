package slurmtest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Partition is the one partition of the cluster, its default.
const Partition = "debug"

// CPUs is how many CPUs the node declares, whatever the machine has: slurmd is told to trust
// slurm.conf (SlurmdParameters=config_overrides), so a 4-task array runs all its tasks at
// once even on CI's 2 cores, as it would on a cluster.
const CPUs = 4

// ReadyTimeout bounds how long Start waits for the node to be idle; it is idle about 1.5 s
// after the daemons start on an idle machine.
const ReadyTimeout = 60 * time.Second

// binaries are what a test needs, each from Debian's slurm-wlm or munge package.
var binaries = []string{"munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "scontrol", "sinfo"}

// InstallHint is what a missing Slurm points at: .ci/run's install step.
const InstallHint = "`.ci/run` installs them: apt-get install -y slurm-wlm munge"

// Cluster is a running one-node cluster. Its daemons are children of the test process.
type Cluster struct {
	Dir       string // everything the cluster writes: configs, state, spool, logs
	Conf      string // its slurm.conf; SLURM_CONF in Env
	Node      string // the node's name, the host's short name
	Partition string // Partition

	// Logs of the daemons, for a failure message: Slurm's own log files and what each
	// daemon wrote to its standard output and error.
	MungeLog, CtldLog, SlurmdLog string
	// JobComp is jobcomp/filetxt's record of every job that ended, one line each: the only
	// trace of an array task cancelled while still pending, which squeue no longer lists
	// (there is no accounting database, so sacct has nothing either).
	JobComp string

	tag     string // BENCHY_SLURMTEST=Dir, set in every process the cluster starts
	daemons []*daemon
}

type daemon struct {
	name string
	out  string // its standard output and error
	cmd  *exec.Cmd
	done chan struct{}
}

// Start starts a one-node cluster for t and stops it when t ends.
func Start(t testing.TB) *Cluster {
	t.Helper()
	requireSlurm(t)
	// Not t.TempDir: a Unix socket's path is at most 107 bytes and slurmd makes one per job
	// step in its spool, so the directory's name must stay short whatever the test's name.
	dir, err := os.MkdirTemp("", "slurmtest")
	if err != nil {
		t.Fatal(err)
	}
	// munged refuses a socket whose directory others cannot search.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{
		Dir: dir, Conf: filepath.Join(dir, "slurm.conf"), Node: strings.SplitN(host, ".", 2)[0],
		Partition: Partition,
		MungeLog:  filepath.Join(dir, "munged.out"), CtldLog: filepath.Join(dir, "slurmctld.log"),
		SlurmdLog: filepath.Join(dir, "slurmd.log"), JobComp: filepath.Join(dir, "jobcomp.txt"),
		tag: "BENCHY_SLURMTEST=" + dir,
	}
	t.Cleanup(func() { c.stop(t) })
	for _, d := range []string{"state", "spool", "jobs"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	key := make([]byte, 1024)
	if f, err := os.Open("/dev/urandom"); err != nil {
		t.Fatal(err)
	} else {
		_, err = f.Read(key)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "munge.key"), key, 0o400); err != nil {
		t.Fatal(err)
	}
	ports := freePorts(t, 2)
	if err := os.WriteFile(c.Conf, []byte(c.config(ports[0], ports[1])), 0o644); err != nil {
		t.Fatal(err)
	}

	began := time.Now()
	c.spawn(t, "munged", "munged", "-F", "--key-file="+filepath.Join(dir, "munge.key"),
		"--socket="+c.socket(), "--pid-file="+filepath.Join(dir, "munged.pid"),
		"--seed-file="+filepath.Join(dir, "munged.seed"), "--log-file="+filepath.Join(dir, "munged.log"))
	c.waitFor(t, "munged's socket", func() bool { _, err := os.Stat(c.socket()); return err == nil })
	c.spawn(t, "slurmctld", "slurmctld", "-D", "-f", c.Conf)
	c.spawn(t, "slurmd", "slurmd", "-D", "-f", c.Conf)
	c.waitFor(t, "the node to be idle", func() bool { return c.NodeState() == "idle" })
	t.Logf("slurmtest: one-node cluster %s ready in %v (slurmctld :%d, slurmd :%d)",
		dir, time.Since(began).Round(time.Millisecond), ports[0], ports[1])
	return c
}

// requireSlurm fails the test under CI, and skips it elsewhere, when it cannot run a cluster.
func requireSlurm(t testing.TB) {
	t.Helper()
	why := unable(lookPath, os.Geteuid())
	if why == "" {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// unable says why a cluster cannot run here, or "" when it can.
func unable(look func(string) (string, error), euid int) string {
	var missing []string
	for _, b := range binaries {
		if _, err := look(b); err != nil {
			missing = append(missing, b)
		}
	}
	switch {
	case len(missing) > 0:
		return fmt.Sprintf("slurmtest: Slurm is not installed (missing %s); %s", strings.Join(missing, ", "), InstallHint)
	case euid != 0:
		return "slurmtest: a one-node Slurm cluster runs its daemons as root; this test is not root"
	}
	return ""
}

// lookPath finds a binary on PATH or in /usr/sbin, where Debian puts the daemons and a
// non-login PATH may not reach.
func lookPath(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	return exec.LookPath(filepath.Join("/usr/sbin", name))
}

func (c *Cluster) socket() string { return filepath.Join(c.Dir, "munge.sock") }

// config is the cluster's slurm.conf. Everything lives under Dir; no cgroups (a sandbox has
// none to give), no accounting database; the scheduler runs every second and right at
// submit, so a job starts within a second of sbatch.
func (c *Cluster) config(ctldPort, slurmdPort int) string {
	d := c.Dir
	return fmt.Sprintf(`# Written by internal/slurmtest for one test; see /work/notes/slurm.md.
ClusterName=benchytest
SlurmctldHost=%[1]s(127.0.0.1)
SlurmctldPort=%[2]d
SlurmdPort=%[3]d
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=%[4]s
StateSaveLocation=%[5]s/state
SlurmdSpoolDir=%[5]s/spool
SlurmctldPidFile=%[5]s/slurmctld.pid
SlurmdPidFile=%[5]s/slurmd.pid
SlurmctldLogFile=%[5]s/slurmctld.log
SlurmdLogFile=%[5]s/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=%[5]s/jobcomp.txt
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1,bf_interval=1,batch_sched_delay=0
SlurmdParameters=config_overrides
ReturnToService=2
MaxArraySize=10001
MinJobAge=3600
KillWait=2
InactiveLimit=0
NodeName=%[1]s NodeAddr=127.0.0.1 CPUs=%[6]d RealMemory=1000 State=UNKNOWN
PartitionName=%[7]s Nodes=%[1]s Default=YES MaxTime=INFINITE State=UP
`, c.Node, ctldPort, slurmdPort, c.socket(), d, CPUs, c.Partition)
}

// freePorts are n TCP ports nothing listens on now, so that clusters of tests running at
// the same time, and whatever else runs on the machine, do not collide.
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	var ports []int
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", ":0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

func (c *Cluster) spawn(t testing.TB, name string, bin string, args ...string) {
	t.Helper()
	path, err := lookPath(bin)
	if err != nil {
		t.Fatal(err)
	}
	d := &daemon{name: name, out: filepath.Join(c.Dir, name+".out"), done: make(chan struct{})}
	out, err := os.Create(d.out)
	if err != nil {
		t.Fatal(err)
	}
	d.cmd = exec.Command(path, args...)
	d.cmd.Dir = c.Dir
	d.cmd.Env = c.Env()
	d.cmd.Stdout, d.cmd.Stderr = out, out
	// A test binary killed by its -timeout runs no cleanup: the daemons then die with it.
	d.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := d.cmd.Start(); err != nil {
		out.Close()
		t.Fatalf("slurmtest: start %s: %v", name, err)
	}
	c.daemons = append(c.daemons, d)
	go func() { d.cmd.Wait(); out.Close(); close(d.done) }()
}

// waitFor polls ok until it holds, failing with the daemons' logs when a daemon exits or
// ReadyTimeout passes first.
func (c *Cluster) waitFor(t testing.TB, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(ReadyTimeout)
	for !ok() {
		for _, d := range c.daemons {
			select {
			case <-d.done:
				t.Fatalf("slurmtest: %s exited (%v) while waiting for %s\n%s", d.name, d.cmd.ProcessState, what, c.Logs())
			default:
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("slurmtest: no %s after %v (node state %q)\n%s", what, ReadyTimeout, c.NodeState(), c.Logs())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Env is the environment of a command that talks to this cluster: the test's own, with
// SLURM_CONF naming the cluster's slurm.conf, and a tag by which the cleanup finds every
// process the cluster or its jobs left (sbatch passes the environment on to the job).
func (c *Cluster) Env() []string {
	return append(os.Environ(), "SLURM_CONF="+c.Conf, c.tag)
}

// Command is a Slurm command (sbatch, squeue, scancel, ...) against this cluster.
func (c *Cluster) Command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = c.Env()
	return cmd
}

// Run runs a Slurm command and returns its standard output, failing t when it fails.
func (c *Cluster) Run(t testing.TB, name string, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := c.Command(name, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("slurmtest: %s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

// NodeState is sinfo's state of the node ("idle", "mixed", "allocated", "down*", ...), or
// "" when slurmctld does not answer.
func (c *Cluster) NodeState() string {
	out, err := c.Command("sinfo", "-h", "-N", "-n", c.Node, "-o", "%T").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// Logs is the end of every daemon's logs, for a failure message.
func (c *Cluster) Logs() string {
	var b strings.Builder
	files := []string{c.CtldLog, c.SlurmdLog}
	for _, d := range c.daemons {
		files = append(files, d.out)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		if len(lines) > 40 {
			lines = lines[len(lines)-40:]
		}
		fmt.Fprintf(&b, "--- %s\n%s\n", f, strings.Join(lines, "\n"))
	}
	return b.String()
}

// pid is used in messages about a daemon that would not stop.
func (d *daemon) pid() string { return strconv.Itoa(d.cmd.Process.Pid) }
