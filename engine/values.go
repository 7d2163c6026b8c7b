package engine

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ir"
)

// problem is a value that does not fit its schema, at path.
func problem(code diag.Code, path []string, format string, args ...any) *ResultError {
	return &ResultError{Code: code, Path: slices.Clone(path), Message: fmt.Sprintf(format, args...)}
}

// resolver turns an artifact value into the absolute path the adapter receives, or reports
// why it cannot (A.6). Dataset values and outputs resolve differently.
type resolver func(value string, path []string) (string, *ResultError)

// check validates v against the schema f (A.2, A.6): closed objects, every field required,
// null never valid, bool never a number, int without fraction or exponent, float finite,
// date/time/datetime in their canonical forms. It returns v with artifact paths resolved: v
// itself when f has no artifact, else a copy (v is never changed).
func check(v any, f ir.Field, path []string, resolve resolver) (any, *ResultError) {
	return checkValue(v, f, slices.Clip(path), resolve)
}

func checkValue(v any, f ir.Field, path []string, resolve resolver) (any, *ResultError) {
	if v == nil {
		return nil, problem(diag.WrongType, path, "%s is null; every field needs a value of type %s", pathName(path), f.Type)
	}
	switch f.Type {
	case ir.TypeObject:
		return checkObject(v, f, path, resolve)
	case ir.TypeString:
		s, ok := v.(string)
		if !ok {
			return nil, wrongType(v, f, path)
		}
		if !utf8.ValidString(s) { // an in-process adapter's string; JSON text is checked as it is decoded
			return nil, problem(diag.InvalidValue, path, "%s is not valid UTF-8", pathName(path))
		}
	case ir.TypeEnum:
		s, ok := v.(string)
		if !ok {
			return nil, wrongType(v, f, path)
		}
		if !isMember(f.Values, s) {
			return nil, problem(diag.InvalidEnum, path, "%s is not one of %s", pathName(path), strings.Join(f.Values, ", "))
		}
	case ir.TypeBool:
		if _, ok := v.(bool); !ok {
			return nil, wrongType(v, f, path)
		}
	case ir.TypeInt:
		if _, ok := intText(v); !ok {
			if _, isNum := asFloat(v); isNum {
				return nil, problem(diag.WrongType, path, "%s must be an integer (written without fraction or exponent); found a number that is not", pathName(path))
			}
			return nil, wrongType(v, f, path)
		}
	case ir.TypeFloat:
		x, ok := asFloat(v)
		if !ok {
			return nil, wrongType(v, f, path)
		}
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, problem(diag.InvalidValue, path, "%s is not a finite number", pathName(path))
		}
	case ir.TypeDate, ir.TypeTime, ir.TypeDatetime:
		s, ok := v.(string)
		if !ok {
			return nil, wrongType(v, f, path)
		}
		if _, err := parseTemporal(f.Type, s); err != nil {
			return nil, problem(diag.InvalidValue, path, "%s is not a valid %s: %v", pathName(path), f.Type, err)
		}
	case ir.TypeImage, ir.TypeAudio, ir.TypeDocument:
		s, ok := v.(string)
		if !ok {
			return nil, wrongType(v, f, path)
		}
		resolved, p := resolve(s, path)
		if p != nil {
			return nil, p
		}
		return resolved, nil
	default:
		return nil, problem(diag.InvalidValue, path, "the IR declares an unknown type %q", f.Type)
	}
	return v, nil
}

func checkObject(v any, f ir.Field, path []string, resolve resolver) (any, *ResultError) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, problem(diag.WrongType, path, "%s must be an object with fields %s; found %s", pathName(path), fieldList(f), kindOf(v))
	}
	var out map[string]any // a copy of m, made when an artifact path is resolved
	for _, sub := range f.Fields {
		x, present := m[sub.Name]
		if !present {
			p := append(path, sub.Name)
			return nil, problem(diag.MissingField, p, "required field %s is missing", pathName(p))
		}
		// path has no spare capacity, so append copies it: do so only when the path is used.
		var y any
		var prob *ResultError
		if sub.Type == ir.TypeObject || ir.IsArtifact(sub.Type) {
			y, prob = checkValue(x, sub, append(path, sub.Name), resolve)
		} else if y, prob = checkValue(x, sub, nil, resolve); prob != nil {
			// A scalar needs its path only to report a problem: check it again to name it.
			_, prob = checkValue(x, sub, append(path, sub.Name), resolve)
		}
		if prob != nil {
			return nil, prob
		}
		if hasArtifact(sub) {
			if out == nil {
				out = maps.Clone(m)
			}
			out[sub.Name] = y
		}
	}
	if len(m) > len(f.Fields) {
		var extra []string
		for k := range m {
			if !slices.ContainsFunc(f.Fields, func(sub ir.Field) bool { return sub.Name == k }) {
				extra = append(extra, k)
			}
		}
		slices.Sort(extra) // report the same one on every run
		p := append(path, extra[0])
		return nil, problem(diag.ExtraField, p, "field %s is not declared by the program (it declares %s)", pathName(p), fieldList(f))
	}
	if out == nil {
		return m, nil
	}
	return out, nil
}

// isMember reports whether s is one of an enum's members: by a scan for a short list, by a
// set made once per list for a long one, so that checking n values against m members costs
// n+m, not n*m (1.1 million rows against 49,000 members would have taken minutes).
func isMember(values []string, s string) bool {
	if len(values) <= 32 {
		return slices.Contains(values, s)
	}
	key := &values[0] // the IR's own list: one set per enum field of a run
	memberSets.Lock()
	set, ok := memberSets.m[key]
	if !ok {
		if len(memberSets.m) >= 64 || memberSets.m == nil { // runs come and go: keep few
			memberSets.m = map[*string]map[string]struct{}{}
		}
		set = make(map[string]struct{}, len(values))
		for _, v := range values {
			set[v] = struct{}{}
		}
		memberSets.m[key] = set
	}
	memberSets.Unlock()
	_, in := set[s]
	return in
}

// memberSets holds isMember's sets, by the address of their list's first member; at most 64.
var memberSets struct {
	sync.Mutex
	m map[*string]map[string]struct{}
}

// hasArtifact reports whether f is or holds an artifact, whose value check resolves.
func hasArtifact(f ir.Field) bool {
	return ir.IsArtifact(f.Type) || slices.ContainsFunc(f.Fields, hasArtifact)
}

func wrongType(v any, f ir.Field, path []string) *ResultError {
	return problem(diag.WrongType, path, "%s must be of type %s; found %s", pathName(path), f.Type, kindOf(v))
}

func pathName(path []string) string {
	if len(path) == 0 {
		return "the object"
	}
	return strings.Join(path, ".")
}

func fieldList(f ir.Field) string {
	names := make([]string, len(f.Fields))
	for i, s := range f.Fields {
		names[i] = s.Name
	}
	return strings.Join(names, ", ")
}

// kindOf names a JSON value's kind for messages.
func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	if _, ok := asFloat(v); ok {
		return "a number"
	}
	return fmt.Sprintf("a %T", v)
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// intText reads an integer value of any size (A.6 and A.7 set no range) as its canonical
// decimal text, so that two integers are equal exactly when their texts are: a JSON number
// written without fraction or exponent ("-0" is "0"), a Go integer, or an integral float64
// (which canonical JSON writes without either; its exact decimal value). The cost is linear
// in the number's length.
func intText(v any) (string, bool) {
	switch x := v.(type) {
	case json.Number:
		s := string(x)
		digits := strings.TrimPrefix(s, "-")
		if digits == "" || strings.Trim(digits, "0123456789") != "" || len(digits) > 1 && digits[0] == '0' {
			return "", false // a fraction, an exponent, or not a JSON number at all
		}
		if digits == "0" {
			return "0", true
		}
		return s, true
	case int:
		return strconv.Itoa(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case int32:
		return strconv.FormatInt(int64(x), 10), true
	case float64:
		if x == math.Trunc(x) && !math.IsInf(x, 0) {
			if x == 0 {
				return "0", true
			}
			return strconv.FormatFloat(x, 'f', 0, 64), true
		}
	}
	return "", false
}

// asFloat reads any number.
func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil && !math.IsInf(f, 0) {
			return 0, false
		}
		return f, true
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case int32:
		return float64(x), true
	}
	return 0, false
}

// parseTemporal checks a date, time or datetime in its canonical form and returns a value
// that compares equal exactly when the instants are equal (A.7).
func parseTemporal(typ, s string) (string, error) {
	switch typ {
	case ir.TypeDate:
		if len(s) != 10 || s[4] != '-' || s[7] != '-' {
			return "", fmt.Errorf("want YYYY-MM-DD")
		}
		if _, err := time.Parse("2006-01-02", s); err != nil {
			return "", fmt.Errorf("no such calendar date")
		}
		return s, nil
	case ir.TypeTime:
		return parseTime(s)
	}
	return parseDatetime(upperTZ(s))
}

// parseDatetime checks an RFC 3339 date-time and returns the instant it denotes, in UTC,
// with its fraction exactly as written less trailing zeros: time.Parse would keep only
// nanoseconds (so that .1234567891 and .1234567892 compared equal) and refuses the leap
// second 23:59:60 that RFC 3339 allows (§5.7).
func parseDatetime(s string) (string, error) {
	bad := fmt.Errorf("want an RFC 3339 date-time with a time zone, such as 2026-01-01T10:00:00Z")
	if !isRFC3339(s) {
		return "", bad
	}
	const whole = len("2006-01-02T15:04:05")
	rest, frac := s[whole:], ""
	if rest[0] == '.' {
		n := 1
		for n < len(rest) && '0' <= rest[n] && rest[n] <= '9' {
			n++
		}
		frac, rest = strings.TrimRight(rest[1:n], "0"), rest[n:]
	}
	leap := s[17:19] == "60"
	plain := s[:whole]
	if leap {
		plain = s[:17] + "59"
	}
	t, err := time.Parse("2006-01-02T15:04:05Z07:00", plain+rest)
	if err != nil {
		return "", bad
	}
	t = t.UTC()
	out := t.Format("2006-01-02T15:04:05")
	if leap {
		if t.Hour() != 23 || t.Minute() != 59 {
			return "", fmt.Errorf("a leap second is 23:59:60 in UTC")
		}
		out = out[:17] + "60"
	}
	if frac != "" {
		out += "." + frac
	}
	return out + "Z", nil
}

// upperTZ spells a date-time's "t" separator and "z" zone in upper case: RFC 3339 §5.6
// allows either case, time.Parse only the upper.
func upperTZ(s string) string {
	if len(s) > 10 && s[10] == 't' {
		s = s[:10] + "T" + s[11:]
	}
	if n := len(s); n > 0 && s[n-1] == 'z' {
		s = s[:n-1] + "Z"
	}
	return s
}

// isRFC3339 checks the exact shape of an RFC 3339 date-time, which time.Parse relaxes: it
// takes a one-digit hour, a comma before the fraction and offsets of 24 hours or more.
func isRFC3339(s string) bool {
	const form = "dddd-dd-ddTdd:dd:dd"
	if len(s) < len(form) || !fitsForm(s[:len(form)], form) {
		return false
	}
	rest := s[len(form):]
	if len(rest) > 1 && rest[0] == '.' {
		n := 1
		for n < len(rest) && '0' <= rest[n] && rest[n] <= '9' {
			n++
		}
		if n == 1 {
			return false
		}
		rest = rest[n:]
	}
	if rest == "Z" {
		return true
	}
	return len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && fitsForm(rest[1:], "dd:dd") &&
		rest[1:3] <= "23" && rest[4:6] <= "59"
}

// fitsForm reports whether s matches form, where 'd' stands for an ASCII digit.
func fitsForm(s, form string) bool {
	if len(s) != len(form) {
		return false
	}
	for i := 0; i < len(form); i++ {
		if form[i] == 'd' && (s[i] < '0' || s[i] > '9') || form[i] != 'd' && s[i] != form[i] {
			return false
		}
	}
	return true
}

// parseTime checks HH:MM:SS[.fraction] and returns it with trailing fraction zeros dropped,
// so 10:00:00.000 and 10:00:00 compare equal at any precision.
func parseTime(s string) (string, error) {
	bad := fmt.Errorf("want HH:MM:SS or HH:MM:SS.fraction")
	if len(s) < 8 || s[2] != ':' || s[5] != ':' {
		return "", bad
	}
	for _, i := range []int{0, 1, 3, 4, 6, 7} {
		if s[i] < '0' || s[i] > '9' {
			return "", bad
		}
	}
	if s[0:2] > "23" || s[3:5] > "59" || s[6:8] > "59" {
		return "", fmt.Errorf("hour, minute or second out of range")
	}
	frac := s[8:]
	if frac != "" {
		if frac[0] != '.' || len(frac) == 1 || strings.Trim(frac[1:], "0123456789") != "" {
			return "", bad
		}
		frac = strings.TrimRight(frac, "0")
		if frac == "." {
			frac = ""
		}
	}
	return s[:8] + frac, nil
}
