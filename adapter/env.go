package adapter

import (
	"errors"
	"slices"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/redact"
)

// environ is the environment a command binding's processes start with: the variables of
// baseEnv and those the binding lists under env, each only when set in benchy's own
// environment (lookup), so that the command sees what it would see if benchy passed its
// whole environment, for these names and no others. The secrets masked in what the command
// answers and logs are the values of the variables whose names mark them as credentials
// (redact.CredentialName), and the credentials any value carries as a URL
// (redact.URLSecrets): DATABASE_URL=postgres://bob:PASSWORD@db/x has a plain name.
func (b *binding) environ(lookup func(string) (string, bool)) ([]string, *redact.Secrets) {
	env := []string{} // not nil: a nil Cmd.Env passes everything
	var secrets []string
	names := append(slices.Clip(baseEnv), b.env...)
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		if v, ok := lookup(name); ok {
			env = append(env, name+"="+v)
			if redact.CredentialName(name) {
				secrets = append(secrets, v)
			} else {
				secrets = append(secrets, redact.URLSecrets(v)...)
			}
		}
	}
	return env, redact.New(secrets...)
}

// urlSecrets are the credentials an http binding's URL carries (redact.URLSecrets).
func urlSecrets(raw string) *redact.Secrets { return redact.New(redact.URLSecrets(raw)...) }

// maskResult masks secrets in what an adapter returns: the output's strings and keys, and
// the failure's message and prediction.
func maskResult(s *redact.Secrets, out any, err error) (any, error) {
	if s == nil {
		return out, err
	}
	if f := (*engine.Failure)(nil); errors.As(err, &f) {
		f.Message = s.String(f.Message)
		f.Prediction = s.Value(f.Prediction)
	}
	return s.Value(out), err
}
