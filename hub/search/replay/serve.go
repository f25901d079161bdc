package replay

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// NewServer returns an MCP server that lists r's tools as recorded (name,
// title, description, input schema, annotations) and answers each call
// with Answer. Output schemas are left out: a replayed tool returns text,
// not the structured content a declared output schema would promise.
func NewServer(r *Recording) (*server.MCPServer, error) {
	tools, err := r.Decoded()
	if err != nil {
		return nil, err
	}
	name := r.ServerInfo.Name
	if name == "" {
		name = r.Service
	}
	s := server.NewMCPServer(name+" (replay)", r.Version, server.WithToolCapabilities(false))
	for _, t := range tools {
		t.RawOutputSchema = nil
		t.Execution = nil // every replayed call answers at once
		s.AddTool(t, answer)
	}
	return s, nil
}

// answer is every replayed tool's handler.
func answer(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultText(Answer(req.Params.Name, req.GetArguments())), nil
}

// Answer is the text a replayed tool returns: the tool's name and its
// arguments as JSON (keys sorted), so a test can tell which tool a call
// reached and with what.
func Answer(tool string, args map[string]any) string {
	if args == nil {
		args = map[string]any{}
	}
	b, err := json.Marshal(args)
	if err != nil {
		b = []byte(fmt.Sprintf("%q", err.Error()))
	}
	return fmt.Sprintf("replayed %s with %s", tool, b)
}

// Serve serves the recording at path over stdin and stdout until stdin
// closes.
func Serve(path string) error {
	r, err := Load(path)
	if err != nil {
		return err
	}
	s, err := NewServer(r)
	if err != nil {
		return err
	}
	return server.ServeStdio(s)
}
