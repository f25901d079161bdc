package search

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// metaSchemas are the meta-tools' own input schemas, compiled once: their
// arguments are checked like any tool's, with the same messages.
var metaSchemas = sync.OnceValue(func() map[string]*jsonschema.Schema {
	m := map[string]*jsonschema.Schema{}
	for _, t := range MetaTools() {
		s, err := compile(t.Name, t.RawInputSchema)
		if err != nil {
			panic(fmt.Sprintf("search: the input schema of %s does not compile: %v", t.Name, err))
		}
		m[t.Name] = s
	}
	return m
})

// arguments decodes a call's arguments, keeping numbers exact, and checks
// them against the schema of the meta-tool named tool.
func arguments(tool string, req mcp.CallToolRequest) (map[string]any, *mcp.CallToolResult) {
	raw, err := rawArguments(req)
	if err != nil {
		return nil, mcp.NewToolResultError(fmt.Sprintf("%s: %v", tool, err))
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, mcp.NewToolResultError(fmt.Sprintf("%s: the arguments are not JSON: %v", tool, err))
	}
	if err := metaSchemas()[tool].Validate(v); err != nil {
		return nil, mcp.NewToolResultError((&ArgumentsError{Tool: tool, Err: err}).Error())
	}
	return v.(map[string]any), nil
}

// rawArguments returns a request's arguments as JSON: the bytes the client
// sent when the request came off the wire, else the decoded value
// re-encoded; no arguments are an empty object.
func rawArguments(req mcp.CallToolRequest) (json.RawMessage, error) {
	raw := req.Params.RawArguments
	if len(bytes.TrimSpace(raw)) == 0 {
		if req.Params.Arguments == nil {
			return json.RawMessage(`{}`), nil
		}
		var err error
		if raw, err = json.Marshal(req.Params.Arguments); err != nil {
			return nil, fmt.Errorf("the arguments cannot be encoded: %w", err)
		}
	}
	if string(bytes.TrimSpace(raw)) == "null" {
		return json.RawMessage(`{}`), nil
	}
	return raw, nil
}

// structured returns v as a result's structured content and, for clients
// that read only text, the same as JSON text.
func structured(v any) *mcp.CallToolResult {
	b, err := json.Marshal(v)
	if err != nil {
		return mcp.NewToolResultError(err.Error())
	}
	return mcp.NewToolResultStructured(v, string(b))
}

// A searchOutput is search_tools' structured result.
type searchOutput struct {
	Tools []Result `json:"tools"`
}

// SearchTools answers a search_tools call from ix: the tools that best
// match the query, best first, as structured content and as JSON text.
// Scores are rounded to three decimals. Bad arguments give an error result.
func SearchTools(ix *Index, req mcp.CallToolRequest) *mcp.CallToolResult {
	args, bad := arguments(SearchToolsName, req)
	if bad != nil {
		return bad
	}
	limit := DefaultLimit
	if n, ok := args["limit"].(json.Number); ok {
		i, _ := n.Int64() // the schema holds it to an integer in [1, 50]
		limit = int(i)
	}
	found := ix.Search(args["query"].(string), limit)
	for i := range found {
		found[i].Score = math.Round(found[i].Score*1000) / 1000
	}
	if found == nil {
		found = []Result{}
	}
	return structured(searchOutput{Tools: found})
}

// A described tool is one entry of describe_tools' result.
type described struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// DescribeTools answers a describe_tools call from ix: each named tool's
// full description and input schema, in the order asked (a name asked twice
// is described once). Names the index does not hold are listed under
// "unknown", with the tools that were found: one mistyped name does not
// cost the model the others. Only when no name is known is the result an
// error, naming them.
func DescribeTools(ix *Index, req mcp.CallToolRequest) *mcp.CallToolResult {
	args, bad := arguments(DescribeToolsName, req)
	if bad != nil {
		return bad
	}
	out := struct {
		Tools   []described `json:"tools"`
		Unknown []string    `json:"unknown,omitempty"`
	}{Tools: []described{}}
	var unknown []string
	seen := map[string]bool{}
	for _, v := range args["names"].([]any) {
		name := v.(string)
		if seen[name] {
			continue
		}
		seen[name] = true
		d, ok := ix.Lookup(name)
		if !ok {
			unknown = append(unknown, name)
			continue
		}
		out.Tools = append(out.Tools, described{Name: d.Name, Description: d.Description, InputSchema: compact(d.InputSchema)})
	}
	if len(out.Tools) == 0 {
		return mcp.NewToolResultError(fmt.Sprintf("describe_tools: no tool named %s; search_tools finds tools by what they do",
			strings.Join(unknown, ", ")))
	}
	out.Unknown = unknown
	return structured(out)
}

// A Call is a call_tool request the hub should route: the tool and its
// arguments, checked against the tool's input schema.
type Call struct {
	Name string
	// Arguments are the JSON the client sent for the tool (an object).
	Arguments json.RawMessage
}

// Request returns the request to route to the tool: orig (a call_tool
// request) with the tool's name and arguments in place of its own, its
// _meta, task and headers kept.
func (c Call) Request(orig mcp.CallToolRequest) mcp.CallToolRequest {
	req := orig
	req.Params.Name = c.Name
	req.Params.RawArguments = c.Arguments
	var args map[string]any
	_ = json.Unmarshal(c.Arguments, &args) // checked to be an object
	req.Params.Arguments = args
	return req
}

// CheckCall reads a call_tool request. When the hub should route it, it
// returns the Call and a nil result; otherwise it returns the error result
// to answer with: for arguments that fail the tool's input schema, the
// result gives the failures and the schema, so the model can correct its
// call in one step.
func CheckCall(ix *Index, req mcp.CallToolRequest) (Call, *mcp.CallToolResult) {
	if _, bad := arguments(CallToolName, req); bad != nil {
		return Call{}, bad
	}
	raw, _ := rawArguments(req) // arguments already decoded it
	var in struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return Call{}, mcp.NewToolResultError("call_tool: " + err.Error())
	}
	d, ok := ix.Lookup(in.Name)
	if !ok {
		return Call{}, mcp.NewToolResultError(fmt.Sprintf("call_tool: no tool named %s; search_tools finds tools by what they do", in.Name))
	}
	v, _ := jsonschema.UnmarshalJSON(bytes.NewReader(in.Arguments)) // an object, by call_tool's schema
	if err := ix.Validate(in.Name, v); err != nil {
		schema := compact(d.InputSchema)
		text := fmt.Sprintf("%v\nThe input schema of %s is:\n%s", err, in.Name, schema)
		res := mcp.NewToolResultError(text)
		res.StructuredContent = map[string]any{"error": err.Error(), "name": in.Name, "inputSchema": schema}
		return Call{}, res
	}
	return Call{Name: in.Name, Arguments: in.Arguments}, nil
}

// compact returns a schema without insignificant white space (recorded
// schemas are often indented, which costs tokens); an absent one is
// {"type":"object"}.
func compact(schema json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(schema)) == 0 {
		return json.RawMessage(`{"type":"object"}`)
	}
	var buf bytes.Buffer
	if json.Compact(&buf, schema) != nil {
		return schema
	}
	return buf.Bytes()
}
