//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// bigClaude and biggerClaude are the sizes of the homes whose ~/.claude.json
// is the one of a heavy Claude Code user: the fixture's file with 3,000 more
// projects, each with a long history, about 38 MB and 65 MB (issue 28's
// figure). chronicle reads every project's local servers and approvals, and
// nothing of their history.
const (
	bigClaude    = "claude38mb"
	biggerClaude = "claude65mb"
)

const (
	bigProjects = 3000
	bigServices = 10 // declared and linked into Claude Code's user scope
)

// historyOf is the number of prompts per project of a big Claude size.
func historyOf(size string) int {
	if size == biggerClaude {
		return 120
	}
	return 69
}

// bigClaudeHome lays out the fixture home's ~/.claude.json grown to
// bigProjects projects, and a configuration of bigServices services linked
// into Claude Code.
func bigClaudeHome(home, fixtures string, history int) error {
	src, err := os.ReadFile(filepath.Join(fixtures, "claude-code", "home", ".claude.json"))
	if err != nil {
		return err
	}
	text := strings.ReplaceAll(string(src), "/home/dev", home)
	const open = "\"projects\": {\n"
	at := strings.Index(text, open)
	if at < 0 {
		return fmt.Errorf("the fixture's .claude.json has no projects")
	}
	var b strings.Builder
	b.Grow(70 << 20)
	b.WriteString(text[:at+len(open)])
	for i := range bigProjects {
		bigProject(&b, filepath.Join(home, "src", fmt.Sprintf("project-%d", i)), i, history)
	}
	b.WriteString(text[at+len(open):])
	dots := filepath.Join(home, "dots")
	if err := os.MkdirAll(dots, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte(b.String()), 0o600); err != nil {
		return err
	}
	var cfg strings.Builder
	var names []string
	for i := range bigServices {
		fmt.Fprintf(&cfg, "service \"big-%d\" {\n  command = \"npx\"\n  args    = [\"-y\", \"@example/server-%d\"]\n}\n", i, i)
		names = append(names, fmt.Sprintf("%q", fmt.Sprintf("big-%d", i)))
	}
	fmt.Fprintf(&cfg, "link \"services\" {\n  tools    = [\"claude\"]\n  services = [%s]\n}\n", strings.Join(names, ", "))
	return os.WriteFile(filepath.Join(dots, "chronicle.hcl"), []byte(cfg.String()), 0o644)
}

// bigProject writes one project member as Claude Code writes it
// (JSON.stringify with two spaces), followed by a comma.
func bigProject(b *strings.Builder, path string, n, history int) {
	fmt.Fprintf(b, "    %q: {\n      \"allowedTools\": [],\n      \"history\": [\n", path)
	for h := range history {
		sep := ","
		if h == history-1 {
			sep = ""
		}
		fmt.Fprintf(b, "        {\n          \"display\": \"prompt %d of project %d: look at the failing test in src/module_%d.go and fix the flaky retry logic\",\n          \"pastedContents\": {}\n        }%s\n", h, n, h, sep)
	}
	fmt.Fprintf(b, "      ],\n      \"mcpContextUris\": [],\n      \"mcpServers\": {},\n      \"enabledMcpjsonServers\": [],\n      \"disabledMcpjsonServers\": [],\n      \"hasTrustDialogAccepted\": true,\n      \"projectOnboardingSeenCount\": %d,\n      \"lastCost\": 0.%d,\n      \"lastSessionId\": \"%08d-0000-4000-8000-000000000000\"\n    },\n", n%5, n, n)
}
