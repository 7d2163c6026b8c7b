package engine

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ir"
)

func leafField(name, typ string, values ...string) ir.Field {
	return ir.Field{Name: name, Type: typ, Values: values}
}

func object(name string, fields ...ir.Field) ir.Field {
	return ir.Field{Name: name, Type: ir.TypeObject, Fields: fields}
}

// fakeResolver resolves the artifact "ok.png" to "/abs/ok.png" and nothing else: check must
// hand the resolved path on, and report the resolver's problem with the artifact's path.
func fakeResolver(value string, path []string) (string, *ResultError) {
	if value == "ok.png" {
		return "/abs/ok.png", nil
	}
	return "", problem(diag.ArtifactNotFound, path, "no such artifact %q", value)
}

// TestCheckScalars holds one row per rule of A.2 and A.6 for a single field x of each type.
// A value is written as JSON (decoded as the dataset reader does, numbers as json.Number)
// or, for what only an in-process adapter can answer, as a Go value.
func TestCheckScalars(t *testing.T) {
	tests := []struct {
		rule    string
		typ     string
		json    string // the value of x, as JSON
		goValue any    // or the value of x, as a Go value, when json is ""
		code    diag.Code
	}{
		{rule: "a string is a string", typ: ir.TypeString, json: `"Acme S.L."`},
		{rule: "the empty string is a string", typ: ir.TypeString, json: `""`},
		{rule: "a number is not a string", typ: ir.TypeString, json: `5`, code: diag.WrongType},
		{rule: "a boolean is not a string", typ: ir.TypeString, json: `true`, code: diag.WrongType},
		{rule: "an array is not a string", typ: ir.TypeString, json: `["a"]`, code: diag.WrongType},
		{rule: "an object is not a string", typ: ir.TypeString, json: `{"a":"b"}`, code: diag.WrongType},

		{rule: "bool accepts true", typ: ir.TypeBool, json: `true`},
		{rule: "bool accepts false", typ: ir.TypeBool, json: `false`},
		{rule: "1 is not a bool", typ: ir.TypeBool, json: `1`, code: diag.WrongType},
		{rule: `"true" is not a bool`, typ: ir.TypeBool, json: `"true"`, code: diag.WrongType},

		{rule: "an int is a JSON number without fraction or exponent", typ: ir.TypeInt, json: `42`},
		{rule: "a negative int is an int", typ: ir.TypeInt, json: `-5`},
		{rule: `json.Number("-5") is an int`, typ: ir.TypeInt, goValue: json.Number("-5")},
		{rule: "zero is an int", typ: ir.TypeInt, json: `0`},
		{rule: "the largest int64 is an int", typ: ir.TypeInt, json: `9223372036854775807`},
		{rule: "the smallest int64 is an int", typ: ir.TypeInt, json: `-9223372036854775808`},
		{rule: "an int has no range (A.6): 2^63 is an int", typ: ir.TypeInt, json: `9223372036854775808`},
		{rule: "an int has no range (A.6): -2^63-1 is an int", typ: ir.TypeInt, json: `-9223372036854775809`},
		{rule: "an int has no range (A.6): 40 digits are an int", typ: ir.TypeInt, json: `1234567890123456789012345678901234567890`},
		{rule: "an int with an exponent is not an int, however large", typ: ir.TypeInt, json: `1e400`, code: diag.WrongType},
		{rule: "RFC 3339 allows a lower-case t and z in a datetime (§5.6)", typ: ir.TypeDatetime, json: `"2026-01-01t10:00:00z"`},
		{rule: "a lower-case t with an offset is a datetime", typ: ir.TypeDatetime, json: `"2026-01-01t10:00:00.5+01:00"`},
		{rule: "1.0 has a fraction: not an int", typ: ir.TypeInt, json: `1.0`, code: diag.WrongType},
		{rule: "1e2 has an exponent: not an int", typ: ir.TypeInt, json: `1e2`, code: diag.WrongType},
		{rule: "1E2 has an exponent: not an int", typ: ir.TypeInt, json: `1E2`, code: diag.WrongType},
		{rule: "1.5 is not an int", typ: ir.TypeInt, json: `1.5`, code: diag.WrongType},
		{rule: "bool is not accepted as int", typ: ir.TypeInt, json: `true`, code: diag.WrongType},
		{rule: "a numeric string is not an int", typ: ir.TypeInt, json: `"5"`, code: diag.WrongType},
		{rule: "a Go int from an in-process adapter is an int", typ: ir.TypeInt, goValue: 7},
		{rule: "a Go int64 from an in-process adapter is an int", typ: ir.TypeInt, goValue: int64(-7)},
		{rule: "an integral float64 from an in-process adapter is an int (JSON writes it as 7)", typ: ir.TypeInt, goValue: 7.0},
		{rule: "a float64 with a fraction is not an int", typ: ir.TypeInt, goValue: 7.5, code: diag.WrongType},

		{rule: "a float is any finite number: an integer literal is a valid real", typ: ir.TypeFloat, json: `121`},
		{rule: `json.Number("121") is a float`, typ: ir.TypeFloat, goValue: json.Number("121")},
		{rule: "121.0 is a float", typ: ir.TypeFloat, json: `121.0`},
		{rule: "an exponent is allowed in a float", typ: ir.TypeFloat, json: `-1.5e-3`},
		{rule: "a float64 from an in-process adapter is a float", typ: ir.TypeFloat, goValue: 0.1},
		{rule: "a Go int from an in-process adapter is a float", typ: ir.TypeFloat, goValue: 3},
		{rule: "bool is not accepted as float", typ: ir.TypeFloat, json: `false`, code: diag.WrongType},
		{rule: "a numeric string is not a float", typ: ir.TypeFloat, json: `"1.5"`, code: diag.WrongType},
		{rule: "NaN is not finite", typ: ir.TypeFloat, goValue: math.NaN(), code: diag.InvalidValue},
		{rule: "+Inf is not finite", typ: ir.TypeFloat, goValue: math.Inf(1), code: diag.InvalidValue},
		{rule: "a JSON number beyond float64 has no finite value", typ: ir.TypeFloat, json: `1e400`, code: diag.InvalidValue},

		{rule: "a declared member is a valid enum value", typ: ir.TypeEnum, json: `"positive"`},
		{rule: "an undeclared string is invalid_enum", typ: ir.TypeEnum, json: `"neutral"`, code: diag.InvalidEnum},
		{rule: "enum membership is case-sensitive", typ: ir.TypeEnum, json: `"Positive"`, code: diag.InvalidEnum},
		{rule: "enum membership does not trim", typ: ir.TypeEnum, json: `"positive "`, code: diag.InvalidEnum},
		{rule: "a number is not an enum value (wrong_type, not invalid_enum)", typ: ir.TypeEnum, json: `1`, code: diag.WrongType},
		{rule: "a boolean is not an enum value", typ: ir.TypeEnum, json: `true`, code: diag.WrongType},

		{rule: "a date is YYYY-MM-DD", typ: ir.TypeDate, json: `"2026-01-31"`},
		{rule: "29 February of a leap year is a date", typ: ir.TypeDate, json: `"2024-02-29"`},
		{rule: "29 February of a common year is not a date", typ: ir.TypeDate, json: `"2026-02-29"`, code: diag.InvalidValue},
		{rule: "30 February is not a real date", typ: ir.TypeDate, json: `"2026-02-30"`, code: diag.InvalidValue},
		{rule: "month 13 is not a real date", typ: ir.TypeDate, json: `"2026-13-01"`, code: diag.InvalidValue},
		{rule: "day 00 is not a real date", typ: ir.TypeDate, json: `"2026-01-00"`, code: diag.InvalidValue},
		{rule: "a one-digit month is not YYYY-MM-DD", typ: ir.TypeDate, json: `"2026-1-01"`, code: diag.InvalidValue},
		{rule: "a date without dashes is not YYYY-MM-DD", typ: ir.TypeDate, json: `"20260101"`, code: diag.InvalidValue},
		{rule: "a date with a time is not a date", typ: ir.TypeDate, json: `"2026-01-01T00:00:00Z"`, code: diag.InvalidValue},
		{rule: "a date with a leading space is not a date", typ: ir.TypeDate, json: `" 2026-01-01"`, code: diag.InvalidValue},
		{rule: "a signed year is not YYYY", typ: ir.TypeDate, json: `"+026-01-01"`, code: diag.InvalidValue},
		{rule: "a number is not a date", typ: ir.TypeDate, json: `20260101`, code: diag.WrongType},

		{rule: "a time is HH:MM:SS", typ: ir.TypeTime, json: `"10:00:00"`},
		{rule: "a time may carry a fraction", typ: ir.TypeTime, json: `"23:59:59.999999"`},
		{rule: "midnight is 00:00:00", typ: ir.TypeTime, json: `"00:00:00"`},
		{rule: "24:00:00 is not a time of day", typ: ir.TypeTime, json: `"24:00:00"`, code: diag.InvalidValue},
		{rule: "minute 60 is not a time", typ: ir.TypeTime, json: `"10:60:00"`, code: diag.InvalidValue},
		{rule: "HH:MM lacks seconds", typ: ir.TypeTime, json: `"10:00"`, code: diag.InvalidValue},
		{rule: "a dot without fraction digits is not a time", typ: ir.TypeTime, json: `"10:00:00."`, code: diag.InvalidValue},
		{rule: "a comma is not the fraction separator", typ: ir.TypeTime, json: `"10:00:00,5"`, code: diag.InvalidValue},
		{rule: "a one-digit hour is not HH", typ: ir.TypeTime, json: `"1:00:00"`, code: diag.InvalidValue},
		{rule: "a time has no time zone", typ: ir.TypeTime, json: `"10:00:00Z"`, code: diag.InvalidValue},
		{rule: "a number is not a time", typ: ir.TypeTime, json: `36000`, code: diag.WrongType},

		{rule: "a datetime is RFC 3339 with Z", typ: ir.TypeDatetime, json: `"2026-01-01T10:00:00Z"`},
		{rule: "a datetime may carry a numeric offset", typ: ir.TypeDatetime, json: `"2026-01-01T10:00:00+01:00"`},
		{rule: "a datetime may carry a fraction", typ: ir.TypeDatetime, json: `"2026-01-01T10:00:00.123-05:30"`},
		{rule: "a datetime without a time zone is invalid", typ: ir.TypeDatetime, json: `"2026-01-01T10:00:00"`, code: diag.InvalidValue},
		{rule: "a date alone is not a datetime", typ: ir.TypeDatetime, json: `"2026-01-01"`, code: diag.InvalidValue},
		{rule: "RFC 3339 separates date and time with T, not a space", typ: ir.TypeDatetime, json: `"2026-01-01 10:00:00Z"`, code: diag.InvalidValue},
		{rule: "a datetime's date must be real", typ: ir.TypeDatetime, json: `"2026-02-30T10:00:00Z"`, code: diag.InvalidValue},
		{rule: "hour 24 is not RFC 3339", typ: ir.TypeDatetime, json: `"2026-01-01T24:00:00Z"`, code: diag.InvalidValue},
		{rule: "RFC 3339 hours have two digits", typ: ir.TypeDatetime, json: `"2026-01-01T1:00:00Z"`, code: diag.InvalidValue},
		{rule: "RFC 3339 fractions follow a dot, not a comma", typ: ir.TypeDatetime, json: `"2026-01-01T10:00:00,5Z"`, code: diag.InvalidValue},
		{rule: "RFC 3339 fractions have digits", typ: ir.TypeDatetime, json: `"2026-01-01T10:00:00.Z"`, code: diag.InvalidValue},
		{rule: "RFC 3339 offsets have a colon", typ: ir.TypeDatetime, json: `"2026-01-01T10:00:00+0100"`, code: diag.InvalidValue},
		{rule: "RFC 3339 offset hours stop at 23", typ: ir.TypeDatetime, json: `"2026-01-01T10:00:00+24:00"`, code: diag.InvalidValue},
		{rule: "a number is not a datetime", typ: ir.TypeDatetime, json: `1767261600`, code: diag.WrongType},

		{rule: "an image is a path the resolver accepts", typ: ir.TypeImage, json: `"ok.png"`},
		{rule: "an audio path the resolver refuses is artifact_not_found", typ: ir.TypeAudio, json: `"missing.wav"`, code: diag.ArtifactNotFound},
		{rule: "a document path the resolver refuses is artifact_not_found", typ: ir.TypeDocument, json: `"../etc/passwd"`, code: diag.ArtifactNotFound},
		{rule: "an artifact is a path string, not a number", typ: ir.TypeImage, json: `1`, code: diag.WrongType},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			f := leafField("x", tt.typ)
			if tt.typ == ir.TypeEnum {
				f.Values = []string{"positive", "negative"}
			}
			x := tt.goValue
			if tt.json != "" {
				x = jsonValue(t, tt.json)
			}
			got, p := check(map[string]any{"x": x}, object("", f), nil, fakeResolver)
			if tt.code == "" {
				if p != nil {
					t.Fatalf("check = %s at %v (%s), want valid", p.Code, p.Path, p.Message)
				}
				want := x
				if ir.IsArtifact(tt.typ) {
					want = "/abs/ok.png" // artifacts come back resolved
				}
				if g := got.(map[string]any)["x"]; !reflect.DeepEqual(g, want) {
					t.Errorf("check returned x = %#v, want %#v", g, want)
				}
				return
			}
			if p == nil {
				t.Fatalf("check accepted %v, want %s", x, tt.code)
			}
			if p.Code != tt.code || !slices.Equal(p.Path, []string{"x"}) {
				t.Errorf("check = %s at %q (%s), want %s at [x]", p.Code, p.Path, p.Message, tt.code)
			}
			if p.Message == "" || !diag.Registered(p.Code) {
				t.Errorf("problem %+v lacks a message or a registered code", p)
			}
		})
	}
}

// TestCheckNullNeverValid: "null never valid", for every semantic type and for an object.
func TestCheckNullNeverValid(t *testing.T) {
	types := append(slices.Clone(ir.Types), ir.TypeObject)
	for _, typ := range types {
		f := leafField("x", typ)
		switch typ {
		case ir.TypeEnum:
			f.Values = []string{"a"}
		case ir.TypeObject:
			f.Fields = []ir.Field{leafField("y", ir.TypeString)}
		}
		_, p := check(map[string]any{"x": nil}, object("", f), nil, fakeResolver)
		if p == nil || p.Code != diag.WrongType || !slices.Equal(p.Path, []string{"x"}) {
			t.Errorf("null for a %s field: got %+v, want wrong_type at [x]", typ, p)
		}
	}
}

// supplierSchema is the paper's nested output (section 2): supplier {name, tax_id}, date, total.
var supplierSchema = object("",
	object("supplier", leafField("name", ir.TypeString), leafField("tax_id", ir.TypeString)),
	leafField("date", ir.TypeDate),
	leafField("total", ir.TypeFloat),
)

// TestCheckObjects: closed objects, every field required, nested objects recursively, and
// the path to the first problem.
func TestCheckObjects(t *testing.T) {
	tests := []struct {
		rule string
		json string
		code diag.Code
		path []string
	}{
		{rule: "an object with exactly the declared fields is valid",
			json: `{"supplier":{"name":"Acme","tax_id":"B1"},"date":"2026-01-01","total":121}`},
		{rule: "field order does not matter",
			json: `{"total":121.0,"date":"2026-01-01","supplier":{"tax_id":"B1","name":"Acme"}}`},
		{rule: "a missing top-level field is missing_field at its path",
			json: `{"supplier":{"name":"Acme","tax_id":"B1"},"date":"2026-01-01"}`, code: diag.MissingField, path: []string{"total"}},
		{rule: "a missing nested field is missing_field at its full path",
			json: `{"supplier":{"name":"Acme"},"date":"2026-01-01","total":1}`, code: diag.MissingField, path: []string{"supplier", "tax_id"}},
		{rule: "an undeclared top-level field is extra_field (closed objects)",
			json: `{"supplier":{"name":"Acme","tax_id":"B1"},"date":"2026-01-01","total":1,"debug":"foo"}`, code: diag.ExtraField, path: []string{"debug"}},
		{rule: "of several extra fields, the first in sorted order is reported",
			json: `{"zz":1,"supplier":{"name":"Acme","tax_id":"B1"},"date":"2026-01-01","total":1,"mm":2,"qq":3}`, code: diag.ExtraField, path: []string{"mm"}},
		{rule: "an undeclared nested field is extra_field at its full path",
			json: `{"supplier":{"name":"Acme","tax_id":"B1","zip":"28001"},"date":"2026-01-01","total":1}`, code: diag.ExtraField, path: []string{"supplier", "zip"}},
		{rule: "a nested value of the wrong type is wrong_type at its full path",
			json: `{"supplier":{"name":"Acme","tax_id":5},"date":"2026-01-01","total":1}`, code: diag.WrongType, path: []string{"supplier", "tax_id"}},
		{rule: "a nested value is validated by its own type's rules",
			json: `{"supplier":{"name":"Acme","tax_id":"B1"},"date":"2026-02-30","total":1}`, code: diag.InvalidValue, path: []string{"date"}},
		{rule: "a scalar where an object is declared is wrong_type",
			json: `{"supplier":"Acme","date":"2026-01-01","total":1}`, code: diag.WrongType, path: []string{"supplier"}},
		{rule: "an array where an object is declared is wrong_type",
			json: `{"supplier":[],"date":"2026-01-01","total":1}`, code: diag.WrongType, path: []string{"supplier"}},
		{rule: "a null nested object is wrong_type",
			json: `{"supplier":null,"date":"2026-01-01","total":1}`, code: diag.WrongType, path: []string{"supplier"}},
		{rule: "an empty object lacks every field",
			json: `{}`, code: diag.MissingField, path: []string{"supplier"}},
		{rule: "a top-level value that is not an object is wrong_type at the root",
			json: `"Acme"`, code: diag.WrongType, path: []string{}},
		{rule: "a top-level array is wrong_type at the root",
			json: `[{"total":1}]`, code: diag.WrongType, path: []string{}},
		{rule: "a top-level null is wrong_type at the root",
			json: `null`, code: diag.WrongType, path: []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			v := jsonValue(t, tt.json)
			got, p := check(v, supplierSchema, nil, fakeResolver)
			if tt.code == "" {
				if p != nil {
					t.Fatalf("check = %s at %v (%s), want valid", p.Code, p.Path, p.Message)
				}
				if !reflect.DeepEqual(got, v) {
					t.Errorf("check returned %v, want the value itself %v", got, v)
				}
				return
			}
			if p == nil {
				t.Fatalf("check accepted %s, want %s at %v", tt.json, tt.code, tt.path)
			}
			if p.Code != tt.code || !slices.Equal(p.Path, tt.path) {
				t.Errorf("check = %s at %q, want %s at %q (%s)", p.Code, p.Path, tt.code, tt.path, p.Message)
			}
		})
	}
}

// TestCheckPathPrefix: problems carry the caller's path prefix ("input"/"expected" for a
// dataset row) and check never writes into the caller's path slice.
func TestCheckPathPrefix(t *testing.T) {
	prefix := make([]string, 1, 8) // spare capacity: an append would be visible
	prefix[0] = "expected"
	v := jsonValue(t, `{"supplier":{"name":"Acme","tax_id":1},"date":"2026-01-01","total":1}`)
	_, p := check(v, supplierSchema, prefix, fakeResolver)
	if p == nil || !slices.Equal(p.Path, []string{"expected", "supplier", "tax_id"}) {
		t.Fatalf("got %+v, want a problem at [expected supplier tax_id]", p)
	}
	_, p2 := check(jsonValue(t, `{"supplier":{"name":"Acme","tax_id":"B"},"date":"x","total":1}`), supplierSchema, prefix, fakeResolver)
	if !slices.Equal(p.Path, []string{"expected", "supplier", "tax_id"}) || p2 == nil || !slices.Equal(p2.Path, []string{"expected", "date"}) {
		t.Errorf("paths changed under each other: %q, %+v", p.Path, p2)
	}
}

// TestCheckArtifactsResolved: artifacts anywhere in an object are passed through the
// resolver, and the value check returns carries the resolved paths (the adapter's input).
func TestCheckArtifactsResolved(t *testing.T) {
	schema := object("", leafField("scan", ir.TypeImage), object("att", leafField("doc", ir.TypeDocument)))
	got, p := check(jsonValue(t, `{"scan":"ok.png","att":{"doc":"ok.png"}}`), schema, []string{"input"}, fakeResolver)
	if p != nil {
		t.Fatal(p)
	}
	want := map[string]any{"scan": "/abs/ok.png", "att": map[string]any{"doc": "/abs/ok.png"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	_, p = check(jsonValue(t, `{"scan":"ok.png","att":{"doc":"gone.pdf"}}`), schema, []string{"input"}, fakeResolver)
	if p == nil || p.Code != diag.ArtifactNotFound || !slices.Equal(p.Path, []string{"input", "att", "doc"}) {
		t.Errorf("got %+v, want artifact_not_found at [input att doc]", p)
	}
}
