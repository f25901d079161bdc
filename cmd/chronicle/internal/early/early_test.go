package early

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/state"
)

func TestGuessFrom(t *testing.T) {
	env := map[string]string{"HOME": "/home/u"}
	getenv := func(k string) string { return env[k] }
	for _, tc := range []struct {
		args []string
		want *Guess
	}{
		{[]string{"plan"}, &Guess{ConfigDir: "/work", StatePath: "/home/u/.chronicle/state.json"}},
		{[]string{"plan", "--detailed-exitcode"}, &Guess{ConfigDir: "/work", StatePath: "/home/u/.chronicle/state.json"}},
		{[]string{"--chdir", "dots", "apply", "--auto-approve"}, &Guess{ConfigDir: "/work/dots", StatePath: "/home/u/.chronicle/state.json"}},
		{[]string{"-C/etc/c", "plan"}, &Guess{ConfigDir: "/etc/c", StatePath: "/home/u/.chronicle/state.json"}},
		{[]string{"plan", "--chdir=../c", "--home", "h"}, &Guess{ConfigDir: "/c", StatePath: "/work/h/state.json"}},
		{[]string{"plan", "--out", "apply", "--replace=x", "--var", "a=b"}, &Guess{ConfigDir: "/work", StatePath: "/home/u/.chronicle/state.json"}},
		// Commands that read something else first, or a line it cannot read.
		{[]string{"version"}, nil},
		{[]string{"serve", "--stdio"}, nil},
		{[]string{"apply", "saved.plan"}, nil},
		{[]string{"plan", "--help"}, nil},
		{[]string{"plan", "--chdir"}, nil},
		{[]string{"--", "plan"}, nil},
		{nil, nil},
	} {
		got := GuessFrom(tc.args, getenv, "/work")
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: got %+v, want %+v", tc.args, got, tc.want)
		}
	}
	env["CHRONICLE_HOME"] = "/srv/chronicle"
	if g := GuessFrom([]string{"plan"}, getenv, "/work"); g.StatePath != "/srv/chronicle/state.json" {
		t.Errorf("with CHRONICLE_HOME: %+v", g)
	}
}

// writeHome lays out a configuration directory and a state file.
func writeHome(t *testing.T) (dir, statePath string, st *state.State) {
	t.Helper()
	root := t.TempDir()
	dir = filepath.Join(root, "dots")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "a.hcl"), []byte("service \"x\" {\n  command = \"npx\"\n}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.hcl"), []byte("skill \"y\" {\n  source = \"./y\"\n}\n"), 0o644)
	statePath = filepath.Join(root, "state.json")
	st = state.New()
	st.ConfigDir = dir
	if err := st.Save(statePath); err != nil {
		t.Fatal(err)
	}
	return dir, statePath, st
}

// A parse made ahead is handed back only for the same file with the same
// bytes: a file changed since (or never read) is parsed by its reader.
func TestConfigFileOnlyForTheSameBytes(t *testing.T) {
	dir, statePath, _ := writeHome(t)
	r := Start(&Guess{ConfigDir: dir, StatePath: statePath})
	a := filepath.Join(dir, "a.hcl")
	src, _ := os.ReadFile(a)
	file, diags, ok := r.ConfigFile(a, src)
	if !ok || diags.HasErrors() || string(file.Bytes) != string(src) {
		t.Fatalf("the same bytes: ok %v, diags %v, file %q", ok, diags, file.Bytes)
	}
	if _, _, ok := r.ConfigFile(a, append(src, '\n')); ok {
		t.Fatal("a parse of other bytes was handed back")
	}
	if _, _, ok := r.ConfigFile(filepath.Join(dir, "c.hcl"), src); ok {
		t.Fatal("a parse was handed back for a file that was not read")
	}
	var none *Reads
	if _, _, ok := none.ConfigFile(a, src); ok {
		t.Fatal("nothing read ahead, yet a parse")
	}
}

// The state decoded ahead is taken once, and only while the file holds the
// bytes it was decoded from.
func TestStateOnlyWhileTheFileIsTheSame(t *testing.T) {
	dir, statePath, st := writeHome(t)
	r := Start(&Guess{ConfigDir: dir, StatePath: statePath})
	got, ok, err := r.State(statePath)
	if !ok || err != nil || got.Lineage != st.Lineage || got.ConfigDir != dir {
		t.Fatalf("state: ok %v err %v %+v", ok, err, got)
	}
	if _, ok, _ := r.State(statePath); ok {
		t.Fatal("the state was handed out twice")
	}

	r = Start(&Guess{ConfigDir: dir, StatePath: statePath})
	<-r.done
	st.ConfigDir = "/elsewhere"
	if err := st.Save(statePath); err != nil { // another apply, since
		t.Fatal(err)
	}
	if _, ok, _ := r.State(statePath); ok {
		t.Fatal("a state decoded from bytes the file no longer holds was handed out")
	}
	r = Start(&Guess{ConfigDir: dir, StatePath: statePath})
	if _, ok, _ := r.State(filepath.Join(dir, "other.json")); ok {
		t.Fatal("the state of another path was handed out")
	}
	if _, ok, _ := r.State(statePath); !ok {
		t.Fatal("asking for another path took the state away from its own")
	}
}

// A file too large to be parsed before its nesting is checked is left to
// the configuration's loader.
func TestLargeConfigIsNotParsedAhead(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.hcl")
	src := []byte(strings.Repeat("# padding\n", 8<<10))
	os.WriteFile(big, src, 0o644)
	r := Start(&Guess{ConfigDir: dir})
	if _, _, ok := r.ConfigFile(big, src); ok {
		t.Fatal("a file over 64 KiB was parsed ahead")
	}
}
