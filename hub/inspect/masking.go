package inspect

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// What the hub sends masks in two ways (docs/masking.md): MCP traffic to
// clients (lists, results, errors, forwarded notifications) has only the
// registered values replaced, with mask.Bare, inside decoded JSON strings; a
// model never needs a secret the hub resolved to launch an upstream, and
// every other byte of a tool's data must stay as the upstream sent it. What
// a person reads (/api/*, the inspector, the hub's log) is masked with
// Masker.Text, which also hides token-shaped strings.

// ForClient masks v for an MCP client: it is encoded, its registered values
// replaced, and decoded again with decode only when something was masked.
func ForClient[T any](m *mask.Masker, v T, decode func([]byte) (T, error)) T {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	masked := m.JSON(b)
	if bytes.Equal(masked, b) {
		return v
	}
	out, err := decode(masked)
	if err != nil {
		return v
	}
	return out
}

// MaskTool masks a tool's listing (description, title, schemas, annotations)
// for clients, keeping its schemas raw.
func MaskTool(m *mask.Masker, t mcp.Tool) mcp.Tool {
	return ForClient(m, t, DecodeTool)
}

// DecodeTool decodes a tool with its schemas left raw, as the upstream
// package lists them (the typed schema would drop keywords).
func DecodeTool(b []byte) (mcp.Tool, error) {
	var w struct {
		mcp.Tool
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return mcp.Tool{}, err
	}
	t := w.Tool
	t.InputSchema, t.OutputSchema = mcp.ToolInputSchema{}, mcp.ToolOutputSchema{}
	t.RawInputSchema = w.InputSchema
	if len(w.OutputSchema) > 0 && string(w.OutputSchema) != "null" {
		t.RawOutputSchema = w.OutputSchema
	}
	return t, nil
}

// DecodeJSON decodes into a fresh T, for types that round-trip as they are.
func DecodeJSON[T any](b []byte) (T, error) {
	var v T
	err := json.Unmarshal(b, &v)
	return v, err
}

// DecodeCallToolResult decodes a tool result as mcp.ParseCallToolResult
// does, with one decode instead of two: the check that content is there
// (unless more input is asked for) scans the bytes instead of decoding them.
func DecodeCallToolResult(b []byte) (*mcp.CallToolResult, error) {
	var content, resultType []byte
	if !wire.ScanObject(b, func(key, value []byte) {
		switch {
		case wire.KeyIs(key, "content"):
			content = value
		case wire.KeyIs(key, "resultType"):
			resultType = value
		}
	}) {
		raw := json.RawMessage(b)
		return mcp.ParseCallToolResult(&raw)
	}
	if len(content) == 0 && wire.StringValue(resultType) != string(mcp.ResultTypeInputRequired) {
		return nil, errors.New("content is missing")
	}
	var res mcp.CallToolResult
	if err := json.Unmarshal(b, &res); err != nil {
		return nil, fmt.Errorf("failed to unmarshal response: %w", err)
	}
	return &res, nil
}

func DecodeGetPromptResult(b []byte) (*mcp.GetPromptResult, error) {
	raw := json.RawMessage(b)
	return mcp.ParseGetPromptResult(&raw)
}

func DecodeReadResourceResult(b []byte) (*mcp.ReadResourceResult, error) {
	raw := json.RawMessage(b)
	return mcp.ParseReadResourceResult(&raw)
}

// ForPerson masks a JSON document a person reads (/api/*, the inspector):
// every string in it goes through Masker.Text, except the values of
// identifier fields (session ids, folders, URIs), whose random-looking parts
// the shape rules would garble; they, and object keys, get the registered
// values replaced. Walking the decoded document keeps it valid JSON whatever
// the masked value contained.
func ForPerson(m *mask.Masker, doc []byte) []byte {
	var v any
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	if d.Decode(&v) != nil {
		b, _ := json.Marshal(m.Text(string(doc)))
		return b
	}
	out, err := json.Marshal(textWalk(m, v, false))
	if err != nil {
		return doc
	}
	return out
}

// identifierFields hold names, ids and paths rather than free text. Tool,
// prompt and service names are among them: a long exposed name
// (github__create_pull_request_review) has the shape of a token, and is
// not one.
var identifierFields = map[string]bool{
	"id": true, "session": true, "root": true, "project": true, "endpoint": true,
	"uri": true, "uriTemplate": true, "cwd": true, "command": true, "started": true, "time": true,
	// Folders and files of the console's skills and takeover review, and
	// content hashes.
	"config_dir": true, "dir": true, "path": true, "file": true, "link": true, "source": true,
	"store": true, "target": true, "hash": true, "sha": true, "origin_sha": true, "computed_at": true,
	// Names of tools, services and skills: a long tool name such as
	// get-structured-content looks random to the shape rules.
	"name": true, "tool": true, "service": true,
}

func textWalk(m *mask.Masker, v any, identifier bool) any {
	switch x := v.(type) {
	case string:
		if identifier {
			return m.Literal(x)
		}
		return m.Text(x)
	case []any:
		for i, e := range x {
			x[i] = textWalk(m, e, identifier)
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[m.Literal(k)] = textWalk(m, e, identifierFields[k])
		}
		return out
	}
	return v
}

// A LogHandler masks every log record's message and attributes with
// Masker.Text before its handler writes it: the hub's log is read by people,
// and mcp-go and the upstreams log through it too.
type LogHandler struct {
	Next   slog.Handler
	Masker *mask.Masker
}

func (h LogHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.Next.Enabled(ctx, l)
}

func (h LogHandler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, h.Masker.Text(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.Next.Handle(ctx, out)
}

func (h LogHandler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, h.Masker.Text(v.String()))
	case slog.KindGroup:
		attrs := v.Group()
		out := make([]any, len(attrs))
		for i, g := range attrs {
			out[i] = h.attr(g)
		}
		return slog.Group(a.Key, out...)
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			return slog.String(a.Key, h.Masker.Text(err.Error()))
		}
		if b, err := json.Marshal(v.Any()); err == nil {
			return slog.String(a.Key, h.Masker.Text(string(b)))
		}
	}
	return a
}

func (h LogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	masked := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		masked[i] = h.attr(a)
	}
	return LogHandler{Next: h.Next.WithAttrs(masked), Masker: h.Masker}
}

func (h LogHandler) WithGroup(name string) slog.Handler {
	return LogHandler{Next: h.Next.WithGroup(name), Masker: h.Masker}
}
