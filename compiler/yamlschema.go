package compiler

import (
	"encoding/json"

	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/ontology"
)

// SchemaID is where editors may fetch the benchmark YAML schema from; `benchy schema` prints
// the same document.
const SchemaID = "https://benchy.dev/schema/benchmark-1.0.json"

// YAMLSchema returns a JSON Schema (draft-07, what editors' YAML plug-ins support best) for
// benchmark YAML files of ontology reg. Editors use it to complete and check keys, types,
// tasks, domains and languages while authors type. It is looser than the compiler where JSON
// Schema cannot express a rule (weights mirroring the output tree, the task rules, duplicate
// enum members), and never stricter.
func YAMLSchema(reg *ontology.Registry) []byte {
	var taskDesc, domainDesc, langDesc []string
	for _, t := range reg.Tasks {
		taskDesc = append(taskDesc, t.Description)
	}
	for _, d := range reg.Domains {
		domainDesc = append(domainDesc, d.Description)
	}
	for _, l := range reg.Languages {
		langDesc = append(langDesc, l.Name+" ("+l.Native+")")
	}
	leafTypes := []string{}
	for _, t := range ir.Types {
		if t != ir.TypeEnum {
			leafTypes = append(leafTypes, t)
		}
	}
	obj := func(props map[string]any, required ...string) map[string]any {
		return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
	}
	str := map[string]any{"type": "string", "minLength": 1}
	relPath := map[string]any{"type": "string", "minLength": 1, "not": map[string]any{"pattern": `^(/|\\|[A-Za-z]:|~)|://`},
		"description": "a file path relative to the benchmark file"}
	ref := func(name string) map[string]any { return map[string]any{"$ref": "#/definitions/" + name} }
	schema := map[string]any{
		"$schema":     "http://json-schema.org/draft-07/schema#",
		"$id":         SchemaID,
		"title":       "Benchy benchmark",
		"description": "A Benchy benchmark: program, scoring and dataset, B = (P, S, D), and the AI-system that takes it.",
		"type":        "object",
		"properties": map[string]any{
			"version":          map[string]any{"const": ir.SpecVersion, "type": "string", "description": "the Benchy specification version, quoted"},
			"ontology_version": map[string]any{"const": reg.Version, "type": "string", "description": "the ontology registry version, quoted"},
			"benchmark": obj(map[string]any{
				"task":     map[string]any{"enum": reg.TaskIDs(), "enumDescriptions": taskDesc, "description": "the operation performed"},
				"domain":   map[string]any{"enum": reg.DomainIDs(), "enumDescriptions": domainDesc, "description": "the world the exam data represents"},
				"language": map[string]any{"oneOf": []any{ref("language"), obj(map[string]any{"source": ref("language"), "target": ref("language")}, "source", "target")}},
			}, "task", "domain", "language"),
			"program": obj(map[string]any{"input": ref("fields"), "output": ref("fields")}, "input", "output"),
			"scoring": obj(map[string]any{
				"weights":    ref("weights"),
				"aggregator": map[string]any{"const": ir.AggregatorWeighted},
			}, "weights", "aggregator"),
			"data": obj(map[string]any{"path": relPath}, "path"),
			"ai-system": map[string]any{"oneOf": []any{
				obj(map[string]any{"type": map[string]any{"const": ir.SystemExternal}, "id": str}, "type", "id"),
				obj(map[string]any{
					"type": map[string]any{"const": ir.SystemModel}, "provider": str, "model": str, "prompt": relPath,
					"parameters": map[string]any{"type": "object", "minProperties": 1,
						"additionalProperties": map[string]any{"type": []string{"string", "number", "boolean"}}},
				}, "type", "provider", "model"),
			}},
		},
		"required":             rootKeys,
		"additionalProperties": false,
		"allOf": []any{map[string]any{
			"if":   map[string]any{"properties": map[string]any{"benchmark": map[string]any{"properties": map[string]any{"task": map[string]any{"const": "translate"}}}}},
			"then": map[string]any{"properties": map[string]any{"benchmark": map[string]any{"properties": map[string]any{"language": map[string]any{"type": "object"}}}}},
			"else": map[string]any{"properties": map[string]any{"benchmark": map[string]any{"properties": map[string]any{"language": map[string]any{"type": "string"}}}}},
		}},
		"definitions": map[string]any{
			"language": map[string]any{"enum": reg.LanguageCodes(), "enumDescriptions": langDesc, "description": "an ISO 639-1 code"},
			"fields": map[string]any{
				"type": "object", "minProperties": 1, "propertyNames": map[string]any{"minLength": 1},
				"additionalProperties": ref("field"),
				"description":          "named fields: each a type name, an enum, or a nested object",
			},
			"field": map[string]any{"oneOf": []any{
				map[string]any{"enum": leafTypes},
				obj(map[string]any{"enum": map[string]any{"type": "array", "minItems": 1, "uniqueItems": true, "items": str}}, "enum"),
				map[string]any{"allOf": []any{ref("fields"), map[string]any{"not": map[string]any{"required": []string{"enum"}}}}},
			}},
			"weights": map[string]any{
				"type": "object", "minProperties": 1,
				"additionalProperties": map[string]any{"oneOf": []any{
					map[string]any{"type": "number", "minimum": 0},
					ref("weights"),
				}},
				"description": "one weight per leaf output field, nested like the output",
			},
		},
	}
	out, err := json.MarshalIndent(schema, "", "  ")
	if err != nil {
		panic("compiler: schema does not serialise: " + err.Error())
	}
	return append(out, '\n')
}
