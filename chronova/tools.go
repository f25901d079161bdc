package chronova

import (
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The names of the bridge's tools, as the public Chronova MCP server names them.
const (
	ToolDeveloperContext    = "get_developer_context"
	ToolProductivitySummary = "get_productivity_summary"
	ToolAIInsights          = "get_ai_insights"
	ToolRecentActivity      = "get_recent_activity"
)

// Tools returns the four tool definitions. Their input schemas are kept as raw
// JSON, identical to the public server's, because mcp-go's typed schema would
// drop keys such as anyOf and exclusiveMinimum.
func Tools() []mcp.Tool {
	return []mcp.Tool{
		readOnlyTool(ToolAIInsights,
			"Get AI-assisted coding analytics including adoption timeline (AI vs manual coding over time), contribution share (percentage of AI vs manual work), human vs AI comparison by language, project-level AI dependency, and efficiency trends.",
			aiInsightsSchema),
		readOnlyTool(ToolDeveloperContext,
			"Get the authenticated user's developer profile including coding statistics, subscription status, GitHub integration status, and organization memberships. No parameters required — uses the configured API key.",
			developerContextSchema),
		readOnlyTool(ToolProductivitySummary,
			"Get aggregated coding productivity statistics for a time range. Returns total coding time, language breakdown, editor breakdown, and project breakdown.",
			productivitySummarySchema),
		readOnlyTool(ToolRecentActivity,
			"Get recent coding heartbeats (activity events). Returns paginated results — use 'page' and 'per_page' parameters to navigate through large result sets. The response includes 'total' count and pagination metadata.",
			recentActivitySchema),
	}
}

// AddTools registers the four tools on s, served by c. The hub calls it to
// expose them as its built-in "chronova" service; NewServer calls it for the
// bridge alone.
func AddTools(s *server.MCPServer, c *Client) {
	handlers := map[string]server.ToolHandlerFunc{
		ToolDeveloperContext:    c.developerContext,
		ToolProductivitySummary: c.productivitySummary,
		ToolAIInsights:          c.aiInsights,
		ToolRecentActivity:      c.recentActivity,
	}
	for _, tool := range Tools() {
		s.AddTool(tool, handlers[tool.Name])
	}
}

func readOnlyTool(name, description, schema string) mcp.Tool {
	return mcp.Tool{
		Name:           name,
		Description:    description,
		RawInputSchema: json.RawMessage(schema),
		Annotations:    mcp.ToolAnnotation{ReadOnlyHint: mcp.ToBoolPtr(true)},
	}
}

const developerContextSchema = `{"type":"object","properties":{}}`

const productivitySummarySchema = `{
  "type": "object",
  "properties": {
    "range": {
      "type": "string",
      "enum": ["today", "last_7_days", "last_30_days", "last_3_months", "last_6_months", "last_year", "all_time"],
      "description": "Time range for statistics. Named ranges (today, last_7_days, etc.) or custom formats (YYYY for year, YYYY-MM for month, YYYY-MM-DD_to_YYYY-MM-DD for date range)."
    },
    "project": {"type": "string", "description": "Filter results to a specific project name"}
  },
  "required": ["range"]
}`

const aiInsightsSchema = `{
  "type": "object",
  "properties": {
    "range": {
      "anyOf": [
        {"type": "string", "enum": ["today", "last_7_days", "last_30_days", "last_3_months", "last_6_months", "last_year", "all_time"]},
        {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}_to_\\d{4}-\\d{2}-\\d{2}$"}
      ],
      "description": "Time range for analytics. Named ranges (today, last_7_days, etc.) or custom date range (YYYY-MM-DD_to_YYYY-MM-DD)."
    }
  },
  "required": ["range"]
}`

const recentActivitySchema = `{
  "type": "object",
  "properties": {
    "date": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$", "description": "Filter by specific date (YYYY-MM-DD)"},
    "start": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$", "description": "Start date for range (YYYY-MM-DD)"},
    "end": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$", "description": "End date for range (YYYY-MM-DD)"},
    "project": {"type": "string", "description": "Filter by project name"},
    "language": {"type": "string", "description": "Filter by programming language"},
    "editor": {"type": "string", "description": "Filter by editor/IDE name"},
    "page": {"type": "integer", "exclusiveMinimum": 0, "description": "Page number for pagination (default: 1)"},
    "per_page": {"type": "integer", "exclusiveMinimum": 0, "description": "Results per page (default: 100, max: 100)"}
  }
}`
