package tomlfile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

func fixed(t Table) Build {
	return func(map[string]any) (Table, error) { return t, nil }
}

func TestPutFileCreatesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "codex-home", "config.toml")
	if err := PutFile(path, servers, "x", fixed(Table{{"command", "x"}})); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want 0600", info.Mode().Perm())
	}
	if dir, _ := os.Stat(filepath.Dir(path)); dir.Mode().Perm() != 0o700 {
		t.Errorf("folder mode = %v, want 0700", dir.Mode().Perm())
	}
	data, _ := os.ReadFile(path)
	if want := "[mcp_servers.x]\ncommand = \"x\"\n"; string(data) != want {
		t.Errorf("file = %q, want %q", data, want)
	}
	if err := RemoveFile(path, servers, "x"); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); len(data) != 0 {
		t.Errorf("after remove: %q, want an empty file", data)
	}
}

func TestRemoveFileMissingIsNoError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := RemoveFile(path, servers, "x"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("RemoveFile created %s", path)
	}
}

func TestEditsLeaveAnUnparsableFileAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	bad := []byte("model = \"o3\"\n[mcp_servers.x]\ncommand = = \"x\"\n")
	if err := os.WriteFile(path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"put":    PutFile(path, servers, "y", fixed(Table{{"command", "y"}})),
		"remove": RemoveFile(path, servers, "x"),
	} {
		var pe *provider.ParseError
		if !errors.As(err, &pe) || pe.Line != 3 {
			t.Errorf("%s: err = %v, want a *provider.ParseError on line 3", name, err)
		}
	}
	if data, _ := os.ReadFile(path); !bytes.Equal(data, bad) {
		t.Errorf("file changed to %q", data)
	}
}

func TestPutFilePassesTheCurrentEntry(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, fixture(t, "home"), 0o644); err != nil {
		t.Fatal(err)
	}
	var seen map[string]any
	err := PutFile(path, servers, "sentry", func(current map[string]any) (Table, error) {
		seen = current
		return Table{{"url", "https://example.com/mcp"}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen["startup_timeout_sec"] != 10.5 {
		t.Errorf("build saw %v, want sentry as the file has it", seen)
	}
	info, _ := os.Stat(path)
	if info.Mode().Perm() != 0o644 {
		t.Errorf("mode = %v, want the file's own 0644", info.Mode().Perm())
	}
}

func TestFailedVerificationRollsBack(t *testing.T) {
	tests := []struct {
		name   string
		before []byte // nil: no file
		mangle func([]byte) []byte
	}{
		{"garbage", fixture(t, "home"), func([]byte) []byte { return []byte("[[[") }},
		{"other table changed", fixture(t, "home"), func(b []byte) []byte {
			return bytes.Replace(b, []byte("network_access = false"), []byte("network_access = true"), 1)
		}},
		{"entry dropped", fixture(t, "home"), func(b []byte) []byte {
			return bytes.Replace(b, []byte("[mcp_servers.new]"), []byte("[not_servers.new]"), 1)
		}},
		{"new file", nil, func([]byte) []byte { return []byte("x = 1\n") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.toml")
			if tt.before != nil {
				if err := os.WriteFile(path, tt.before, 0o640); err != nil {
					t.Fatal(err)
				}
			}
			defer func(w func(string, []byte, fs.FileMode) error) { writeFile = w }(writeFile)
			real := writeFile
			writeFile = func(path string, data []byte, perm fs.FileMode) error {
				return real(path, tt.mangle(data), perm)
			}
			err := PutFile(path, servers, "new", fixed(Table{{"command", "x"}}))
			if err == nil || !strings.Contains(err.Error(), "restored") {
				t.Fatalf("err = %v, want a verification error saying the file was restored", err)
			}
			data, readErr := os.ReadFile(path)
			switch {
			case tt.before == nil && !errors.Is(readErr, fs.ErrNotExist):
				t.Errorf("a file that did not exist is left behind: %q", data)
			case tt.before != nil && !bytes.Equal(data, tt.before):
				t.Errorf("file not restored: %q", data)
			}
		})
	}
}

func TestEditsWriteThroughASymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "dotfiles", "config.toml")
	link := filepath.Join(dir, "config.toml")
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, fixture(t, "project"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := PutFile(link, servers, "x", fixed(Table{{"command", "x"}})); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", info, err)
	}
	if err := RemoveFile(link, servers, "x"); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(target); !bytes.Equal(data, fixture(t, "project")) {
		t.Errorf("target after put and remove: %q", data)
	}
}

func TestEditStartsOverWhenTheFileChangesMeanwhile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte("a = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	calls := 0
	err := PutFile(path, servers, "x", func(map[string]any) (Table, error) {
		calls++
		if calls == 1 { // another program writes while chronicle computes
			if err := os.WriteFile(path, []byte("a = 2\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return Table{{"command", "x"}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if want := "a = 2\n\n[mcp_servers.x]\ncommand = \"x\"\n"; string(data) != want || calls != 2 {
		t.Errorf("file = %q after %d builds, want %q after 2", data, calls, want)
	}
}
