package machine

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckIdentity(t *testing.T) {
	file := "~/.chronicle/machine.hcl"
	fromFile := &Identity{Name: "work-laptop", From: NamedByFile}
	fromHost := &Identity{Name: "old-host", From: NamedByHostname}
	tests := []struct {
		name     string
		recorded *Identity
		now      Identity
		renamed  bool
		refuse   []string // words the refusal holds
		note     string
	}{
		{"nothing recorded yet", nil, Identity{"vm", NamedByHostname}, false, nil, ""},
		{"the same name", fromFile, Identity{"work-laptop", NamedByFile}, false, nil, ""},
		{"the machine file went missing", fromFile, Identity{"vm", NamedByHostname}, false,
			[]string{`"vm" (its short hostname: ~/.chronicle/machine.hcl names none)`, `last applied by "work-laptop"`, "chronicle machine --set name=work-laptop", "chronicle machine --set name=vm records it", "--machine-renamed"}, ""},
		{"the machine file names another", fromFile, Identity{"home-desktop", NamedByFile}, false,
			[]string{`"home-desktop" (named in ~/.chronicle/machine.hcl)`, `"work-laptop"`}, ""},
		{"renamed on purpose", fromFile, Identity{"vm", NamedByHostname}, true, nil, `was "work-laptop" and is "vm" now (--machine-renamed)`},
		{"a hostname changed", fromHost, Identity{"new-host", NamedByHostname}, false, nil, `changed from "old-host" to "new-host"`},
		{"a machine file added", fromHost, Identity{"laptop", NamedByFile}, false, nil, `changed from "old-host" to "laptop"`},
	}
	for _, tt := range tests {
		note, err := CheckIdentity(tt.recorded, tt.now, file, tt.renamed)
		var ie *IdentityError
		if len(tt.refuse) > 0 {
			if !errors.As(err, &ie) {
				t.Errorf("%s: no refusal (note %q)", tt.name, note)
				continue
			}
			for _, w := range tt.refuse {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s: the refusal lacks %q:\n%s", tt.name, w, err)
				}
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: refused: %v", tt.name, err)
		}
		if tt.note == "" && note != "" || !strings.Contains(note, tt.note) {
			t.Errorf("%s: note %q, want %q", tt.name, note, tt.note)
		}
	}
}

func TestGatherSaysWhereTheNameCameFrom(t *testing.T) {
	if f := Gather("/home/me", nil); f.NameFrom != NamedByHostname || f.Identity().From != NamedByHostname {
		t.Errorf("without a machine file: %+v", f.Identity())
	}
	if f := Gather("/home/me", &File{Name: "work-laptop"}); f.Identity() != (Identity{"work-laptop", NamedByFile}) {
		t.Errorf("with a machine file: %+v", f.Identity())
	}
}

func TestEditSetsTheMachineName(t *testing.T) {
	out, err := Edit{Name: "new-name"}.edit("m.hcl", []byte("site = \"acme\"\n\nmachine {\n  name = \"old\"\n  tags = [\"work\"]\n}\n"))
	if err != nil || !strings.Contains(string(out), `name = "new-name"`) || !strings.Contains(string(out), `tags = ["work"]`) || strings.Contains(string(out), `"old"`) {
		t.Errorf("renamed:\n%s\n%v", out, err)
	}
	out, err = Edit{Name: "fresh"}.edit("m.hcl", nil)
	if err != nil || !strings.Contains(string(out), "machine {\n  name = \"fresh\"\n}") {
		t.Errorf("named in a new file:\n%s\n%v", out, err)
	}
	if _, err := (Edit{Name: "two words"}).edit("m.hcl", nil); err == nil {
		t.Error("a name with a space was accepted")
	}
}
