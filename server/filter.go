package server

import (
	"net/http"
	"net/url"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/store"
)

// filterKeys are the results filter's query keys, each of which may be given once.
var filterKeys = []string{api.QStatus, api.QImperfect, api.QWrong, api.QCode, api.QText, api.QField, api.QExpected, api.QPredicted, api.QScoreMin, api.QScoreMax, api.QSort}

// checkedFilter reads the results filter of query q (api.FilterOf) as the store takes it,
// each value checked against the run's IR b by store.CheckFilter, the check the CLI's
// `runs export` flags share; what only a query can get wrong (a key twice, imperfect=yes)
// is checked here. A refusal says what is allowed.
func checkedFilter(q url.Values, b *ir.Benchmark) (store.ResultFilter, error) {
	for _, k := range filterKeys {
		if len(q[k]) > 1 {
			return store.ResultFilter{}, refuse(http.StatusBadRequest, api.BadRequest, "?%s= is given %d times: name it once", k, len(q[k]))
		}
	}
	if v := q.Get(api.QImperfect); v != "" && v != "1" {
		return store.ResultFilter{}, refuse(http.StatusBadRequest, api.BadRequest, "imperfect is 1 (results whose contribution is below 1) or left out, not %q", clipName(v))
	}
	f, err := store.CheckFilter(api.FilterOf(q), b, q.Has, func(key string) string { return key })
	if err != nil {
		return f, refuse(http.StatusBadRequest, api.BadRequest, "%s", err.Error())
	}
	return f, nil
}
