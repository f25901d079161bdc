package hubtoken

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// TestLoad: the token is made once (0600, in a 0700 folder), the same one
// on the next load, and a file others can read is refused.
func TestLoad(t *testing.T) {
	path := Path(filepath.Join(t.TempDir(), ".chronicle"))
	a, err := Load(fsys.OS{}, path)
	if err != nil || len(a) < 32 {
		t.Fatalf("Load: %q %v", a, err)
	}
	b, err := Load(fsys.OS{}, path)
	if err != nil || b != a {
		t.Fatalf("a second Load: %q %v, want %q", b, err, a)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the token file: %v %v, want mode 0600", info, err)
	}
	if info, err := os.Stat(filepath.Dir(path)); err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("its folder: %v %v, want mode 0700", info, err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(fsys.OS{}, path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("a token file others can read: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("the folder holds %d files, want the token alone (no temporary file left)", len(entries))
	}
}

// TestLoadRace: two processes' worth of Load at once over one home, many
// rounds: every one gets the same token, which is the file's, and no
// reader ever sees the file empty.
func TestLoadRace(t *testing.T) {
	for round := range 300 {
		path := Path(filepath.Join(t.TempDir(), ".chronicle"))
		var wg sync.WaitGroup
		toks := make([]string, 2)
		errs := make([]error, 2)
		for i := range toks {
			wg.Go(func() { toks[i], errs[i] = Load(fsys.OS{}, path) })
		}
		wg.Wait()
		file, err := Read(fsys.OS{}, path)
		if errs[0] != nil || errs[1] != nil || err != nil || toks[0] != toks[1] || toks[0] != file {
			t.Fatalf("round %d: %q %v and %q %v; the file holds %q %v", round, toks[0], errs[0], toks[1], errs[1], file, err)
		}
	}
}

// TestLoadThroughTheSeam: Load writes only through the System it is given,
// and the token appears by a rename that never replaces a file.
func TestLoadThroughTheSeam(t *testing.T) {
	path := Path(filepath.Join(t.TempDir(), ".chronicle"))
	rec := &fsys.Recorder{System: fsys.OS{}}
	if _, err := Load(rec, path); err != nil {
		t.Fatal(err)
	}
	var ops []string
	for _, op := range rec.Writes() {
		ops = append(ops, op.Name)
	}
	if got := strings.Join(ops, " "); got != "MkdirAll WriteNew RenameNew" {
		t.Errorf("writes %q, want MkdirAll WriteNew RenameNew", got)
	}
}

// TestLoadLosesTheRace: when another process puts its token in place
// between this one's look and its rename, this one reads and returns the
// other's, and leaves no temporary file.
func TestLoadLosesTheRace(t *testing.T) {
	path := Path(filepath.Join(t.TempDir(), ".chronicle"))
	const theirs = "0123456789abcdef0123456789abcdef"
	rec := &fsys.Recorder{System: fsys.OS{}, Before: func(op fsys.Op) error {
		if op.Name == "RenameNew" {
			return os.WriteFile(path, []byte(theirs+"\n"), 0o600)
		}
		return nil
	}}
	tok, err := Load(rec, path)
	if err != nil || tok != theirs {
		t.Fatalf("Load: %q %v, want the other process's %q", tok, err, theirs)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("the folder holds %d files, want the token alone", len(entries))
	}
}

// TestReadRefusesAShortFile: a file that holds no token is named, with
// what to do.
func TestReadRefusesAShortFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(path, []byte("short\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(fsys.OS{}, path); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "chronicle apply") {
		t.Fatalf("a short token: %v", err)
	}
	if _, err := Read(fsys.OS{}, path+".none"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a missing file: %v", err)
	}
}

// TestInline: the header refers to the file; Inline puts the token in its
// place in a copy, leaving other references and the original alone;
// Carries reads it back.
func TestInline(t *testing.T) {
	path := "/home/u/.chronicle/hub.token"
	other := secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: "X"})
	d := service.Definition{Transport: service.HTTP, Headers: map[string]secret.Value{HeaderName: Header(path), "X-Other": other}}
	if !Refers(d, path) || Refers(d, "/elsewhere") {
		t.Fatal("Refers")
	}
	if got := d.Headers[HeaderName].HCL(); got != `Bearer ${secret("file:/home/u/.chronicle/hub.token")}` {
		t.Errorf("the header as the state keeps it: %s", got)
	}
	in := Inline(d, path, "tok123")
	if lit, ok := in.Headers[HeaderName].Literal(); !ok || lit != "Bearer tok123" {
		t.Errorf("inlined: %q %v", lit, ok)
	}
	if !in.Headers["X-Other"].Equal(other) || !d.Headers[HeaderName].Equal(Header(path)) {
		t.Error("Inline changed another header or the original")
	}
	if !Carries(in, "tok123") || Carries(in, "other") || Carries(d, "tok123") {
		t.Error("Carries")
	}
	if got := Inline(d, "/elsewhere", "x"); !got.Headers[HeaderName].Equal(d.Headers[HeaderName]) {
		t.Error("Inline of another file changed the header")
	}
}
