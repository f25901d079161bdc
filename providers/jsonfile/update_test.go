package jsonfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

func setTo(v string) Want { return func([]byte) ([]byte, error) { return []byte(v), nil } }
func removal() Want       { return func([]byte) ([]byte, error) { return nil, nil } }
func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

func TestUpdateRoundTripKeepsSymlinkAndMode(t *testing.T) {
	dir := t.TempDir()
	src, _ := os.ReadFile(filepath.Join(fixtures, "zed/home/.config/zed/settings.json"))
	real := filepath.Join(dir, "dotfiles", "settings.json")
	writeFile(t, real, string(src), 0o640)
	link := filepath.Join(dir, "settings.json")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := Update(link, 0o600, []string{"context_servers"}, "n", setTo(`{"url":"https://x"}`)); err != nil {
		t.Fatal(err)
	}
	d, err := Load(link)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := d.Lookup("context_servers", "n", "url"); !ok || v != "https://x" {
		t.Fatalf("entry not written: %v", v)
	}
	if err := Update(link, 0o600, []string{"context_servers"}, "n", removal()); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Lstat(link); info.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the symlink was replaced by a file")
	}
	got, _ := os.ReadFile(real)
	if string(got) != string(src) {
		t.Fatalf("not restored:\n%s", got)
	}
	if info, _ := os.Stat(real); info.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v, want 0640", info.Mode().Perm())
	}
}

func TestUpdateCreatesMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new", "mcp.json")
	if err := Update(path, 0o600, []string{"servers"}, "n", removal()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("removing from a missing file created it")
	}
	if err := Update(path, 0o600, []string{"servers"}, "n", setTo(`{"command":"x"}`)); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if want := "{\n  \"servers\": {\n    \"n\": {\n      \"command\": \"x\"\n    }\n  }\n}\n"; string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", info.Mode().Perm())
	}
	if info, _ := os.Stat(filepath.Dir(path)); info.Mode().Perm() != 0o700 {
		t.Fatalf("folder mode %v, want 0700", info.Mode().Perm())
	}
	if err := Update(path, 0o600, []string{"servers"}, "n", removal()); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "{}\n" {
		t.Fatalf("after removal got %q, want \"{}\\n\"", got)
	}
}

func TestUpdateRollsBackAWrongWrite(t *testing.T) {
	cases := map[string]func([]byte) []byte{
		"extra change":  func(b []byte) []byte { return []byte(strings.Replace(string(b), `"keep": 1`, `"keep": 2`, 1)) },
		"broken syntax": func(b []byte) []byte { return append(b, '}') },
		"entry lost":    func([]byte) []byte { return []byte("{\n  \"keep\": 1\n}\n") },
	}
	for name, m := range cases {
		t.Run(name, func(t *testing.T) {
			mangle = m
			defer func() { mangle = func(b []byte) []byte { return b } }()
			path := filepath.Join(t.TempDir(), "f.json")
			orig := "{\n  \"keep\": 1,\n  \"s\": {}\n}\n"
			writeFile(t, path, orig, 0o644)
			err := Update(path, 0o600, []string{"s"}, "n", setTo(`{"a":1}`))
			if err == nil || !strings.Contains(err.Error(), "restored") {
				t.Fatalf("got %v, want a restored error", err)
			}
			if got, _ := os.ReadFile(path); string(got) != orig {
				t.Fatalf("not rolled back: %q", got)
			}
		})
	}
}

func TestUpdateRefusesUnparsableFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.json")
	orig := "{\n  \"a\": 1,\n  \"b\" 2\n}\n"
	writeFile(t, path, orig, 0o644)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(path, old, old)
	err := Update(path, 0o600, []string{"s"}, "n", setTo(`1`))
	var pe *provider.ParseError
	if !errors.As(err, &pe) || pe.Line != 3 || pe.Column != 7 || pe.File != path {
		t.Fatalf("got %#v, want a ParseError at 3:7", err)
	}
	info, _ := os.Stat(path)
	if got, _ := os.ReadFile(path); string(got) != orig || !info.ModTime().Equal(old) {
		t.Fatal("an unparsable file was touched")
	}
	if _, err := Load(filepath.Join(filepath.Dir(path), "missing.json")); !errors.Is(err, provider.ErrNotConfigured) {
		t.Fatalf("missing file: got %v, want ErrNotConfigured", err)
	}
}

func TestUpdateLeavesUnchangedFileAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.json")
	writeFile(t, path, `{"s": {"n": {"a": 1}}}`, 0o644)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(path, old, old)
	if err := Update(path, 0o600, []string{"s"}, "n", setTo(`{"a":1}`)); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(path); !info.ModTime().Equal(old) {
		t.Fatal("an unchanged entry was rewritten")
	}
}
