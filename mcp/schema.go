package mcp

import (
	"github.com/google/jsonschema-go/jsonschema"
)

// inputSchema is the schema the SDK would infer for T, with every
// ["null", X] type made plain X (a tool's arguments never need a null,
// and some clients' function-calling back ends, Gemini's among them,
// refuse a property whose type is a list) and no "additionalProperties":
// false, so that a client that checks a call against the schema before
// sending it passes on the other names the server reads as well.
func inputSchema[T any]() *jsonschema.Schema {
	s := schemaOf[T]()
	loosen(s)
	return s
}

// outputSchema is the schema the SDK would infer for T, the structured
// content of a tool's results.
func outputSchema[T any]() *jsonschema.Schema { return schemaOf[T]() }

func schemaOf[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic("mcp: schema: " + err.Error()) // the types are this package's: a bug
	}
	return s
}

func loosen(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	if s.Type == "object" && s.Properties != nil {
		s.AdditionalProperties = nil
	}
	loosen(s.Items)
	loosen(s.AdditionalProperties)
	for _, p := range s.Properties {
		loosen(p)
	}
}
