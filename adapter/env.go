package adapter

import (
	"errors"
	"net/url"
	"slices"
	"strings"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/internal/redact"
)

// environ is the environment a command binding's processes start with: the variables of
// baseEnv and those the binding lists under env, each only when set in benchy's own
// environment (lookup), so that the command sees what it would see if benchy passed its
// whole environment, for these names and no others. The values of listed variables whose
// names mark them as credentials (secretName) are the secrets masked in what the command
// answers and logs.
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
			if secretName(name) {
				secrets = append(secrets, v)
			}
		}
	}
	return env, redact.New(secrets...)
}

// secretName tells a variable or query parameter that holds a credential by its name:
// OPENAI_API_KEY, HF_TOKEN, DB_PASSWORD, access_token, sig.
func secretName(name string) bool {
	n := strings.ToUpper(name)
	for _, s := range []string{"KEY", "TOKEN", "SECRET", "PASS", "AUTH", "CREDENTIAL", "SIG", "COOKIE", "SESSION"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// urlSecrets are the credentials an http binding's URL carries: the values of its query
// parameters that secretName marks (?token=, ?key=, ?api_key=, ?sig=) and the password of
// its user information.
func urlSecrets(raw string) *redact.Secrets {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	var secrets []string
	if p, ok := u.User.Password(); ok {
		secrets = append(secrets, p)
	}
	for name, values := range u.Query() {
		if secretName(name) {
			secrets = append(secrets, values...)
		}
	}
	return redact.New(secrets...)
}

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
