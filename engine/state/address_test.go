package state

import (
	"slices"
	"strings"
	"testing"
)

func TestAddresses(t *testing.T) {
	got := sample(t).Addresses()
	want := []string{
		"chronova", "hub",
		`link.all["claude"].command.review`,
		`link.all["codex"].rule.go-style`,
		`link.all["opencode"].rule.go-style`,
		`link.cursor-direct["cursor"].service.linear`,
		`link.everywhere["claude"].hub`,
		`link.everywhere["claude"].skill.pdf`,
		"policy.github", "service.github", "service.linear", "skill.pdf",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("addresses:\n got %q\nwant %q", got, want)
	}
}

func TestDescribe(t *testing.T) {
	s := sample(t)
	for addr, want := range map[string]string{
		"service.linear":                      `"Authorization" = "Bearer ${secret(\"env:LINEAR\")}"`,
		"policy.github":                       `disabled_tools = ["delete_repo"]`,
		"hub":                                 `token = secret("env:CHRONICLE_HUB_TOKEN")`,
		`link.everywhere["claude"].skill.pdf`: `mode = "symlink"`,
		`link.cursor-direct["cursor"].service.linear`: `key_path = ["mcpServers", "linear"]`,
		`link.everywhere["claude"].hub`:               "(journalled, not completed)",
		`link.all["claude"].command.review`:           `path = "/h/.claude/commands/review.md"`,
		`link.all["codex"].rule.go-style`:             `name = "rule.go-style"`,
	} {
		out, err := s.Describe(addr)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(out, "# "+addr) || !strings.Contains(out, want) {
			t.Errorf("%s:\n%s\nwant it to contain %s", addr, out, want)
		}
	}
}

func TestForget(t *testing.T) {
	s := sample(t)
	err := s.Forget("service.githb")
	if err == nil || !strings.Contains(err.Error(), "service.github") {
		t.Fatalf("unknown address: %v, want the close match service.github", err)
	}
	if _, err := s.Describe("nothing-like-it-at-all"); err == nil || strings.Contains(err.Error(), "close matches") {
		t.Fatalf("far address: %v, want an error without matches", err)
	}
	for _, addr := range []string{"service.github", "hub", `link.everywhere["claude"].skill.pdf`, `link.everywhere["claude"].hub`, `link.cursor-direct["cursor"].service.linear`} {
		if err := s.Forget(addr); err != nil {
			t.Fatal(err)
		}
		if slices.Contains(s.Addresses(), addr) {
			t.Fatalf("%s is still in the state after Forget", addr)
		}
	}
	if len(s.Links) != 0 || len(s.Entries) != 0 || len(s.Intents) != 0 || s.Hub != nil {
		t.Fatalf("forgotten records remain: %+v %+v %+v", s.Links, s.Entries, s.Intents)
	}
	if _, ok := s.Services["linear"]; !ok {
		t.Fatal("Forget removed an address it was not given")
	}
}
