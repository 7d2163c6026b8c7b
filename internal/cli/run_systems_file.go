package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/benchy-eval/benchy/engine"
)

// A system file is named on the command line and may be any file given by mistake: a
// private one (.env, the runtime file, the store) is refused by its name before a byte of
// it is read, so that no diagnostic about its text can show what it holds.

// refusedFile is a --system-file refused unread: a usage error.
type refusedFile struct{ reason string }

func (r *refusedFile) Error() string { return r.reason }

// privateSystemFile says why --system-file name is not read, or "": it is, or leads to
// through a link, what engine.IsPrivate says a run never reads (a hidden file or one in a
// hidden folder, a runtime file, in any case), or it is the runtime file runtimeFile by
// another name. Only the part of each path below the working directory's nearest common
// folder counts, so that working inside a hidden folder (~/.work/bench) does not refuse
// every file there, while ../.env, /home/me/.ssh/x and a link to either are refused.
func privateSystemFile(name, runtimeFile string) string {
	if name == "-" {
		return ""
	}
	cwd, err := os.Getwd()
	if err != nil {
		return ""
	}
	abs := name
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(cwd, abs)
	}
	if part := engine.PrivatePart(below(cwd, filepath.Clean(abs))); part != "" {
		return fmt.Sprintf("%s, which is never read as a system file", privateWhy(part))
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "" // not there: reading it says so
	}
	realCwd, err := filepath.EvalSymlinks(cwd)
	if err != nil {
		realCwd = cwd
	}
	if part := engine.PrivatePart(below(realCwd, real)); part != "" {
		return fmt.Sprintf("leads to a file that %s, which is never read as a system file", privateWhy(part))
	}
	info, err := os.Stat(real)
	if rt, rerr := os.Stat(runtimeFile); err == nil && rerr == nil && os.SameFile(info, rt) {
		return fmt.Sprintf("is the runtime file %s, which is never read as a system file", runtimeFile)
	}
	return ""
}

// below is the part of absolute path p under the deepest folder it shares with dir.
func below(dir, p string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if rel, err := filepath.Rel(d, p); err == nil && filepath.IsLocal(rel) {
			return rel
		}
		if d == filepath.Dir(d) {
			return p
		}
	}
}

// privateWhy says what private component part is.
func privateWhy(part string) string {
	if strings.EqualFold(part, engine.RuntimeFile) {
		return "is a runtime file (" + engine.RuntimeFile + ", in any case)"
	}
	return fmt.Sprintf("is hidden or in a hidden folder (%s)", part)
}
