package provider

import "github.com/benchy-eval/benchy/ir"

// Patterns of the canonical temporal forms (A.6), for the structured output schema.
const (
	datePattern     = `^\d{4}-\d{2}-\d{2}$`
	timePattern     = `^\d{2}:\d{2}:\d{2}(\.\d+)?$`
	datetimePattern = `^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$`
)

// JSONSchema translates a program schema into the JSON Schema a provider enforces: every
// field required, no other field allowed, enums as closed string sets, int as integer and
// float as number, temporal types as patterned strings, nested objects alike. Artifacts are
// path strings.
func JSONSchema(f ir.Field) map[string]any {
	switch f.Type {
	case ir.TypeObject:
		props := make(map[string]any, len(f.Fields))
		required := make([]string, len(f.Fields))
		for i, sub := range f.Fields {
			props[sub.Name] = JSONSchema(sub)
			required[i] = sub.Name
		}
		return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
	case ir.TypeInt:
		return map[string]any{"type": "integer"}
	case ir.TypeFloat:
		return map[string]any{"type": "number"}
	case ir.TypeBool:
		return map[string]any{"type": "boolean"}
	case ir.TypeEnum:
		values := make([]any, len(f.Values))
		for i, v := range f.Values {
			values[i] = v
		}
		return map[string]any{"type": "string", "enum": values}
	case ir.TypeDate:
		return map[string]any{"type": "string", "pattern": datePattern, "description": "a calendar date, YYYY-MM-DD"}
	case ir.TypeTime:
		return map[string]any{"type": "string", "pattern": timePattern, "description": "a time of day, HH:MM:SS"}
	case ir.TypeDatetime:
		return map[string]any{"type": "string", "pattern": datetimePattern, "description": "an RFC 3339 date-time with a time zone"}
	}
	return map[string]any{"type": "string"}
}
