package hub

import (
	"strings"
	"testing"
)

// TestReviewHidesValuesUnderSecretKeys: the console's takeover review shows
// the plan's diffs of goose's YAML, Cursor's JSON and Codex's TOML entries
// without a plain-text value under a secret-looking key, whatever its shape
// (issue 27, item 6).
func TestReviewHidesValuesUnderSecretKeys(t *testing.T) {
	c := startConsoleHub(t, "")
	c.m.Write(".config/goose/config.yaml", "extensions:\n  db:\n    type: stdio\n    name: db\n    enabled: true\n    cmd: db-mcp\n    args: []\n    envs:\n      DB_PASSWORD: correct-horse-battery\n    timeout: 300\n")
	c.m.Write(".cursor/mcp.json", `{"mcpServers": {"db": {"command": "db-mcp", "env": {"DB_PASSWORD": "correct-horse-battery"}}}}`)
	c.m.Write(".codex/config.toml", "[mcp_servers.db]\ncommand = \"db-mcp\"\nenv = { DB_PASSWORD = \"correct-horse-battery\" }\n")
	c.m.Config(`
service "db" {
  command = "db-mcp"
  env     = { DB_PASSWORD = secret("env:DB_PASSWORD") }
}
link "all" {
  tools    = ["goose", "cursor", "codex"]
  services = ["db"]
}
`)
	_, body, _ := c.do(t, "GET", "/api/mcp/review?wait=1", "", "")
	for _, tool := range []string{"goose", "cursor", "codex"} {
		if !strings.Contains(body, `link.all[\"`+tool+`\"].service.db`) {
			t.Fatalf("the review has no change for %s's entry:\n%s", tool, body)
		}
	}
	if strings.Count(body, "DB_PASSWORD") < 6 || strings.Contains(body, "correct-horse-battery") {
		t.Fatalf("the review shows the password, or no diff of the entries:\n%s", body)
	}
}
