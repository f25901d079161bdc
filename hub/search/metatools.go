package search

import (
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
)

// The meta-tools' names: in search mode the hub lists these three instead
// of every tool.
const (
	SearchToolsName   = "search_tools"
	DescribeToolsName = "describe_tools"
	CallToolName      = "call_tool"
)

// DefaultLimit and MaxLimit bound the results of search_tools.
const (
	DefaultLimit = 10
	MaxLimit     = 50
)

const searchToolsInput = `{"type":"object","properties":{` +
	`"query":{"type":"string","minLength":1,"description":"What you want to do, in plain words (e.g. \"open a pull request\", \"take a screenshot of the page\")."},` +
	`"limit":{"type":"integer","minimum":1,"maximum":50,"default":10,"description":"Most tools to return."}},` +
	`"required":["query"],"additionalProperties":false}`

const searchToolsOutput = `{"type":"object","properties":{"tools":{"type":"array","items":{"type":"object","properties":{` +
	`"name":{"type":"string"},"description":{"type":"string"},"score":{"type":"number"}},` +
	`"required":["name","description","score"]}}},"required":["tools"]}`

const describeToolsInput = `{"type":"object","properties":{` +
	`"names":{"type":"array","items":{"type":"string"},"minItems":1,"description":"Tool names from search_tools."}},` +
	`"required":["names"],"additionalProperties":false}`

const describeToolsOutput = `{"type":"object","properties":{"tools":{"type":"array","items":{"type":"object","properties":{` +
	`"name":{"type":"string"},"description":{"type":"string"},"inputSchema":{"type":"object"}},` +
	`"required":["name","description","inputSchema"]}},` +
	`"unknown":{"type":"array","items":{"type":"string"},"description":"Names asked for that no tool has."}},"required":["tools"]}`

const callToolInput = `{"type":"object","properties":{` +
	`"name":{"type":"string","description":"A tool name from search_tools."},` +
	`"arguments":{"type":"object","description":"The tool's arguments, matching its inputSchema from describe_tools."}},` +
	`"required":["name","arguments"],"additionalProperties":false}`

// MetaTools returns the definitions of search_tools, describe_tools and
// call_tool. call_tool has no output schema: its result is the called
// tool's own, whatever that tool declares.
func MetaTools() []mcp.Tool {
	search := mcp.NewToolWithRawSchema(SearchToolsName,
		"Find tools by what they do. The tools of the connected services are not listed directly: "+
			"search with a short description of the task, then read a tool's parameters with describe_tools "+
			"and run it with call_tool. Returns matching tools, best first.",
		json.RawMessage(searchToolsInput))
	search.RawOutputSchema = json.RawMessage(searchToolsOutput)
	search.Annotations = readOnly("Search tools")

	describe := mcp.NewToolWithRawSchema(DescribeToolsName,
		"Get the full description and input schema of tools found with search_tools, to call them with call_tool.",
		json.RawMessage(describeToolsInput))
	describe.RawOutputSchema = json.RawMessage(describeToolsOutput)
	describe.Annotations = readOnly("Describe tools")

	call := mcp.NewToolWithRawSchema(CallToolName,
		"Run a tool found with search_tools. The arguments are checked against the tool's input schema; "+
			"the result is the tool's own.",
		json.RawMessage(callToolInput))
	call.Annotations = mcp.ToolAnnotation{Title: "Call a tool"}
	return []mcp.Tool{search, describe, call}
}

func readOnly(title string) mcp.ToolAnnotation {
	yes, no := true, false
	return mcp.ToolAnnotation{Title: title, ReadOnlyHint: &yes, DestructiveHint: &no, IdempotentHint: &yes, OpenWorldHint: &no}
}

// IsMetaTool reports whether name is one of the meta-tools' names.
func IsMetaTool(name string) bool {
	return name == SearchToolsName || name == DescribeToolsName || name == CallToolName
}
