package tokens

import (
	"bytes"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
)

// Count returns the number of o200k_base tokens in text. Special tokens
// such as "<|endoftext|>" are counted as ordinary text, as they are in a tool
// description.
func Count(text string) int {
	if text == "" {
		return 0
	}
	return count(text)
}

// A Definition is the part of a tool a client passes to its model: the
// name, the description and the input schema. Title, annotations, icons and
// the output schema stay with the client (they are not part of the function
// definitions of the Anthropic, OpenAI or Gemini APIs), so they cost no
// context and are not counted.
type Definition struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// DefinitionOf returns t's definition as the hub lists it: the schema is
// RawInputSchema when set (the upstream's own JSON, which the typed schema
// would cut short) and the typed InputSchema otherwise, compacted as
// encoding/json sends it.
func DefinitionOf(t mcp.Tool) Definition {
	schema := t.RawInputSchema
	if len(schema) == 0 {
		// A typed schema always marshals.
		schema, _ = json.Marshal(t.InputSchema)
	}
	return Definition{Name: t.Name, Description: t.Description, InputSchema: schema}
}

// JSON returns the definition as compact JSON, the text Tool counts. "<",
// ">" and "&" are left as they are, not escaped as encoding/json does by
// default: clients decode the hub's listing and hand their model the text,
// which a JavaScript client re-encodes without such escapes.
func (d Definition) JSON() string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d); err != nil {
		// Only an invalid raw schema fails; count it as the text it is.
		buf.Reset()
		_ = enc.Encode(struct {
			Name        string `json:"name"`
			Description string `json:"description,omitempty"`
			InputSchema string `json:"inputSchema"`
		}{d.Name, d.Description, string(d.InputSchema)})
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// Tool returns the token cost of t's definition: the o200k_base tokens of
// the compact JSON object {"name", "description", "inputSchema"} (see
// DefinitionOf). A client wraps each definition in a few tokens of its own
// framing, which varies by client and model and is not counted.
func Tool(t mcp.Tool) int {
	return Count(DefinitionOf(t).JSON())
}

// Tools returns the summed cost of ts.
func Tools(ts []mcp.Tool) int {
	n := 0
	for _, t := range ts {
		n += Tool(t)
	}
	return n
}
