package search

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// A compiledSchema is one tool's input schema, compiled on the first call
// that needs it: most tools of a large catalogue are never called.
type compiledSchema struct {
	once   sync.Once
	schema *jsonschema.Schema
	err    error
}

// ErrUnknownTool is returned for a name the index does not hold.
var ErrUnknownTool = errors.New("no such tool")

// An ArgumentsError says how arguments fail a tool's input schema.
type ArgumentsError struct {
	Tool string
	// Err is the validator's error, which names each failing place.
	Err error
}

func (e *ArgumentsError) Error() string {
	return fmt.Sprintf("the arguments do not match the input schema of %s:\n%s", e.Tool, failures(e.Err))
}

// failures returns the validator's list of failures without its heading,
// which names only the schema's internal address.
func failures(err error) string {
	msg := err.Error()
	if strings.HasPrefix(msg, "jsonschema validation failed") {
		if _, rest, ok := strings.Cut(msg, "\n"); ok {
			return rest
		}
	}
	return msg
}

func (e *ArgumentsError) Unwrap() error { return e.Err }

// Validate checks args (a value decoded by encoding/json) against the input
// schema of the tool named name. It returns ErrUnknownTool, an
// *ArgumentsError, or nil. A schema that cannot be compiled (an unknown
// draft, a $ref outside the schema) does not block the call: it returns
// nil, and the upstream judges the arguments itself.
func (ix *Index) Validate(name string, args any) error {
	i, ok := ix.byName[name]
	if !ok {
		return fmt.Errorf("%s: %w", name, ErrUnknownTool)
	}
	cs := &ix.schemas[i]
	cs.once.Do(func() { cs.schema, cs.err = compile(name, ix.docs[i].InputSchema) })
	if cs.err != nil {
		return nil
	}
	if args == nil {
		// An omitted arguments object is an empty one.
		args = map[string]any{}
	}
	if err := cs.schema.Validate(args); err != nil {
		return &ArgumentsError{Tool: name, Err: err}
	}
	return nil
}

// compile compiles one input schema, by the 2020-12 draft unless it names
// another, as MCP specifies; it never reads a file or the network.
func compile(name string, schema []byte) (*jsonschema.Schema, error) {
	if len(bytes.TrimSpace(schema)) == 0 {
		schema = []byte(`{"type":"object"}`)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	loc := "mem:///" + name + ".json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, err
	}
	return c.Compile(loc)
}

// noLoader refuses every reference outside the schema itself: a tool's
// definition must not make the hub read files or fetch URLs.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%s: schemas outside the tool's definition are not loaded", url)
}
