package mcp

import (
	"github.com/google/jsonschema-go/jsonschema"
)

// inputSchema is the schema the SDK would infer for T, with every
// ["null", X] type made plain X: a tool's arguments never need a null,
// and some clients' function-calling back ends (Gemini's among them)
// refuse a property whose type is a list.
func inputSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic("mcp: input schema: " + err.Error()) // the types are this package's: a bug
	}
	dropNull(s)
	return s
}

func dropNull(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	dropNull(s.Items)
	dropNull(s.AdditionalProperties)
	for _, p := range s.Properties {
		dropNull(p)
	}
}
