package chronova

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/mark3labs/mcp-go/mcp"
)

// The tool handlers. Each validates its arguments, calls one endpoint, and
// returns the result as pretty JSON text. Every failure, bad input or API
// error alike, is a tool result with isError set, so the model can read it;
// the Go error return is left for protocol failures, of which there are none.

func (c *Client) developerContext(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return c.call(ctx, "users/current", nil, true), nil
}

func (c *Client) productivitySummary(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := args(req.GetArguments())
	r, err := a.reqString("range")
	if err == nil {
		err = checkNamedRange(r)
	}
	if err != nil {
		return invalid(err), nil
	}
	project, err := a.optString("project")
	if err != nil {
		return invalid(err), nil
	}
	return c.call(ctx, "users/current/stats/"+r, map[string]string{"project": project}, true), nil
}

func (c *Client) aiInsights(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	r, err := args(req.GetArguments()).reqString("range")
	if err == nil {
		err = checkRangeOrDates(r)
	}
	if err != nil {
		return invalid(err), nil
	}
	return c.call(ctx, "users/current/analytics/ai", map[string]string{"range": r}, true), nil
}

func (c *Client) recentActivity(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := args(req.GetArguments())
	query := map[string]string{}
	for _, name := range []string{"date", "start", "end"} {
		v, err := a.optDate(name)
		if err != nil {
			return invalid(err), nil
		}
		query[name] = v
	}
	if s, e := query["start"], query["end"]; s != "" && e != "" && s > e {
		return invalid(fmt.Errorf("invalid start %s: it is after end %s", s, e)), nil
	}
	for _, name := range []string{"project", "language", "editor"} {
		v, err := a.optString(name)
		if err != nil {
			return invalid(err), nil
		}
		query[name] = v
	}
	for _, p := range []struct {
		name string
		max  int
	}{{"page", math.MaxInt32}, {"per_page", maxPerPage}} {
		n, err := a.optInt(p.name, 1, p.max)
		if err != nil {
			return invalid(err), nil
		}
		if n > 0 {
			query[p.name] = strconv.Itoa(n)
		}
	}
	return c.call(ctx, "users/current/heartbeats", query, false), nil
}

// call runs one GET and renders its body, or its data member when unwrap is
// set, as pretty JSON.
func (c *Client) call(ctx context.Context, path string, query map[string]string, unwrap bool) *mcp.CallToolResult {
	body, err := c.Get(ctx, path, query)
	if err != nil {
		return mcp.NewToolResultError(err.Error())
	}
	if unwrap {
		var envelope struct {
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(body, &envelope); err != nil || envelope.Data == nil {
			u := c.resolve(path, query).Redacted()
			return mcp.NewToolResultError(badResponseError(u, `no "data" member in the body`, err).Error())
		}
		body = envelope.Data
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, body, "", "  "); err != nil {
		// Get checked the body is JSON, so this is a programming error.
		panic(fmt.Sprintf("chronova: indenting valid JSON: %v", err))
	}
	return mcp.NewToolResultText(pretty.String())
}

// invalid turns an argument error into a tool error.
func invalid(err error) *mcp.CallToolResult {
	return mcp.NewToolResultError("Invalid arguments: " + err.Error() + ".")
}
