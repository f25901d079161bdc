//go:build unix

// File modes are a Unix notion: these tests are built for Unix only.

package plan_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/internal/enginetest"
	"github.com/go-git/go-git/v5"
)

// TestHubTokenIntoAReadableFile: a tool's file others can read gets a
// warning before the token goes into it.
func TestHubTokenIntoAReadableFile(t *testing.T) {
	m := enginetest.New(t)
	m.Write(cursorFile, `{"mcpServers": {}}`+"\n")
	if err := os.Chmod(m.Path(cursorFile), 0o644); err != nil {
		t.Fatal(err)
	}
	p := m.Plan(m.Config(httpLink))
	if !strings.Contains(enginetest.Describe(p), "The hub token goes into a file other users can read") {
		t.Errorf("no warning: %s", enginetest.Describe(p))
	}
	if err := os.Chmod(m.Path(cursorFile), 0o600); err != nil {
		t.Fatal(err)
	}
	if p := m.Plan(m.Config(httpLink)); strings.Contains(enginetest.Describe(p), "other users can read") {
		t.Errorf("a private file warned: %s", enginetest.Describe(p))
	}
}

// TestHubTokenFileMadePrivate: a project's (git-ignored) tool file that
// apply creates to carry the hub's token is made 0600, not the 0644 of a
// project's shared files.
func TestHubTokenFileMadePrivate(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	if _, err := git.PlainInit(project, false); err != nil {
		t.Fatal(err)
	}
	m.Write("work/api/.gitignore", ".cursor/\n")
	m.Converge(m.Config(fmt.Sprintf(`
link "api" {
  tools     = ["cursor"]
  hub       = true
  transport = "http"
  project   = %q
}
`, project)))
	info, err := os.Stat(filepath.Join(project, ".cursor", "mcp.json"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the project's tool file with the token: %v %v, want mode 0600", info, err)
	}
}
