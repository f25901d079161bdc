package safefile

import (
	"os"
	"path/filepath"
	"testing"
)

func dirWith(t *testing.T, dir, content string) {
	t.Helper()
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "f"), []byte(content), 0o644)
}

func TestReplaceDir(t *testing.T) {
	for name, replace := range map[string]func(a, b, c string) error{"ReplaceDir": ReplaceDir, "fallback": replaceByRename} {
		base := t.TempDir()
		staged, current, aside := filepath.Join(base, "staged"), filepath.Join(base, "current"), filepath.Join(base, "aside")
		dirWith(t, staged, "new")
		dirWith(t, current, "old")
		link := filepath.Join(base, "link")
		os.Symlink(current, link)
		if err := replace(staged, current, aside); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b, _ := os.ReadFile(filepath.Join(link, "f")); string(b) != "new" {
			t.Fatalf("%s: a link to current reads %q", name, b)
		}
		old1, _ := os.ReadFile(filepath.Join(staged, "f"))
		old2, _ := os.ReadFile(filepath.Join(aside, "f"))
		if string(old1) != "old" && string(old2) != "old" {
			t.Fatalf("%s: the old content is neither at staged nor aside", name)
		}
	}
}
