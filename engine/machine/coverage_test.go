package machine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// The header plan, apply and sync print first names the machine, its
// platform and its tags.
func TestHeader(t *testing.T) {
	for _, tc := range []struct {
		facts Facts
		want  string
	}{
		{Facts{Name: "laptop", OS: "linux", Arch: "amd64"}, "Machine: laptop (linux/amd64), no tags"},
		{Facts{Name: "work", OS: "darwin", Arch: "arm64", Tags: []string{"office", "work"}}, "Machine: work (darwin/arm64), tags: office, work"},
	} {
		if got := tc.facts.Header(); got != tc.want {
			t.Errorf("Header() = %q, want %q", got, tc.want)
		}
	}
}

// machine.* holds every fact, tags and tools as sets (empty ones too);
// while the tool blocks are evaluated, machine.tools is not known yet.
func TestFactsValue(t *testing.T) {
	f := Facts{Hostname: "laptop.local", OS: "linux", Arch: "amd64", User: "dev", Home: "/home/dev", Name: "laptop",
		Tags: []string{"home"}, Tools: []string{"claude", "cursor"}}
	v := f.Value()
	for attr, want := range map[string]string{"hostname": "laptop.local", "os": "linux", "arch": "amd64", "user": "dev", "home": "/home/dev", "name": "laptop"} {
		if got := v.GetAttr(attr).AsString(); got != want {
			t.Errorf("machine.%s = %q, want %q", attr, got, want)
		}
	}
	if !v.GetAttr("tools").HasElement(cty.StringVal("cursor")).True() || v.GetAttr("tools").LengthInt() != 2 {
		t.Errorf("machine.tools = %#v", v.GetAttr("tools"))
	}
	if empty := (Facts{}).Value().GetAttr("tags"); !empty.Type().Equals(cty.Set(cty.String)) || empty.LengthInt() != 0 {
		t.Errorf("no tags = %#v, want an empty set of strings", empty)
	}
	u := f.UnknownTools()
	if u.GetAttr("tools").IsKnown() || u.GetAttr("name").AsString() != "laptop" || !u.GetAttr("tags").HasElement(cty.StringVal("home")).True() {
		t.Errorf("UnknownTools() = %#v", u)
	}
}

// Gather takes the name and tags of the machine file, sorted and each
// once; without one, the name is the short hostname.
func TestGather(t *testing.T) {
	host, _ := os.Hostname()
	short, _, _ := strings.Cut(host, ".")
	if f := Gather("/home/dev", nil); f.Name != short || f.Home != "/home/dev" || f.User == "" || f.Tags != nil {
		t.Errorf("Gather without a machine file = %+v", f)
	}
	f := Gather("/home/dev", &File{Name: "work", Tags: []string{"b", "a", "b"}})
	if f.Name != "work" || strings.Join(f.Tags, ",") != "a,b" {
		t.Errorf("Gather with a machine file = %+v", f)
	}
}

// A missing machine file is an empty one; a file that cannot be read is
// an error; a file that can is parsed.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	path := Path(dir)
	if filepath.Base(path) != FileName {
		t.Fatalf("Path = %s", path)
	}
	f, diags := Read(fsys.OS{}, path)
	if diags.HasErrors() || f.Path != path || f.MachineBlock != nil {
		t.Fatalf("a missing file: %+v %s", f, diags.Error())
	}
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, diags := Read(fsys.OS{}, path); !diags.HasErrors() || !strings.Contains(diags.Error(), path) {
		t.Fatalf("a folder in the file's place: %s", diags.Error())
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("machine {\n  name = \"work\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if f, diags := Read(fsys.OS{}, path); diags.HasErrors() || f.Name != "work" {
		t.Fatalf("a machine file: %+v %s", f, diags.Error())
	}
}
