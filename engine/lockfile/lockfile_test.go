package lockfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

const (
	shaA = "1111111111111111111111111111111111111111"
	shaB = "2222222222222222222222222222222222222222"
	shaC = "3333333333333333333333333333333333333333"
)

func TestLoadMissingIsNoLock(t *testing.T) {
	f, _, diags := Load(fsys.OS{}, t.TempDir())
	if f != nil || diags.HasErrors() {
		t.Fatalf("missing file: %v, %v", f, diags)
	}
}

// TestRoundTrip writes a new file, reads it back, and checks that a rewrite
// keeps comments and blocks of types this version does not know.
func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	f := New()
	if _, err := f.Lock([]Block{{Name: "pdf", URL: "https://example.com/s.git", Ref: "main"}, {Name: "docx", URL: "https://example.com/s.git"}}, nil, false, tipOf(map[string]string{"pdf": shaA, "docx": shaB})); err != nil {
		t.Fatal(err)
	}
	if err := f.Write(fsys.OS{}, dir); err != nil {
		t.Fatal(err)
	}
	got, _, diags := Load(fsys.OS{}, dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := map[string]Skill{
		"pdf":  {Name: "pdf", URL: "https://example.com/s.git", Ref: "main", Commit: shaA},
		"docx": {Name: "docx", URL: "https://example.com/s.git", Ref: "", Commit: shaB},
	}
	if len(got.Skills) != 2 || got.Skills["pdf"] != want["pdf"] || got.Skills["docx"] != want["docx"] {
		t.Fatalf("read back %+v, want %+v", got.Skills, want)
	}
	text, _ := os.ReadFile(Path(dir))
	if !strings.HasPrefix(string(text), "# This file is maintained by \"chronicle lock\"") || !strings.Contains(string(text), "version = 1") {
		t.Fatalf("new file:\n%s", text)
	}
	if strings.Index(string(text), `skill "docx"`) > strings.Index(string(text), `skill "pdf"`) {
		t.Errorf("new entries are not in name order:\n%s", text)
	}

	// A user comment and a block of a later version survive a rewrite.
	edited := strings.Replace(string(text), `skill "pdf" {`, "# the PDF tools\nskill \"pdf\" {", 1) + "\nprovider \"later\" {\n  x = 1\n}\n"
	os.WriteFile(Path(dir), []byte(edited), 0o644)
	got, _, diags = Load(fsys.OS{}, dir)
	if diags.HasErrors() {
		t.Fatalf("a block of an unknown type is refused: %v", diags)
	}
	if _, err := got.Lock([]Block{{Name: "pdf", URL: "https://example.com/s.git", Ref: "main"}}, map[string]bool{"pdf": true}, false, tipOf(map[string]string{"pdf": shaC})); err != nil {
		t.Fatal(err)
	}
	if err := got.Write(fsys.OS{}, dir); err != nil {
		t.Fatal(err)
	}
	text, _ = os.ReadFile(Path(dir))
	for _, want := range []string{"# the PDF tools\nskill \"pdf\"", shaC, `provider "later"`, shaB} {
		if !strings.Contains(string(text), want) {
			t.Errorf("rewritten file lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(string(text), shaA) {
		t.Errorf("the upgraded entry kept its old commit:\n%s", text)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"newer version", "version = 2\n", "from a newer chronicle"},
		{"no version", "skill \"a\" {\n url = \"u\"\n commit = \"" + shaA + "\"\n}\n", "version"},
		{"short commit", "version = 1\nskill \"a\" {\n url = \"u\"\n commit = \"abc\"\n}\n", "not a full 40-character"},
		{"no url", "version = 1\nskill \"a\" {\n commit = \"" + shaA + "\"\n}\n", "url"},
		{"duplicate", "version = 1\nskill \"a\" {\n url = \"u\"\n commit = \"" + shaA + "\"\n}\nskill \"a\" {\n url = \"u\"\n commit = \"" + shaA + "\"\n}\n", "locked twice"},
		{"unknown attribute", "version = 1\nskill \"a\" {\n url = \"u\"\n sha = \"x\"\n commit = \"" + shaA + "\"\n}\n", "sha"},
		{"syntax", "version = \n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := Parse([]byte(tc.src), filepath.Join("cfg", FileName))
			if !diags.HasErrors() {
				t.Fatalf("no error for %q", tc.src)
			}
			if !strings.Contains(diags.Error(), tc.want) {
				t.Errorf("error %q lacks %q", diags.Error(), tc.want)
			}
		})
	}
}

func tipOf(tips map[string]string) Tip {
	return func(b Block) (string, error) {
		if sha, ok := tips[b.Name]; ok {
			return sha, nil
		}
		return "", errors.New("no such ref")
	}
}

// TestLock is the write rule: chronicle lock adds what is missing and never
// moves an entry; --upgrade moves the entries it names, or all.
func TestLock(t *testing.T) {
	const u = "https://example.com/s.git"
	locked := func() *File {
		return &File{Skills: map[string]Skill{
			"pdf": {Name: "pdf", URL: u, Ref: "main", Commit: shaA},
			"old": {Name: "old", URL: u, Ref: "main", Commit: shaA},
		}}
	}
	blocks := func() []Block {
		return []Block{{Name: "pdf", URL: u, Ref: "main"}, {Name: "new", URL: u, Ref: "v1"}}
	}
	tips := tipOf(map[string]string{"pdf": shaB, "new": shaC})
	for _, tc := range []struct {
		name       string
		blocks     []Block
		upgrade    map[string]bool
		all        bool
		wantErr    string
		wantCommit map[string]string // "" = no entry
		wantRows   string
	}{
		{name: "lock adds, never moves, keeps entries without a block", blocks: blocks(),
			wantCommit: map[string]string{"pdf": shaA, "new": shaC, "old": shaA}, wantRows: "+skill.new"},
		{name: "upgrade one", blocks: blocks(), upgrade: map[string]bool{"pdf": true},
			wantCommit: map[string]string{"pdf": shaB, "new": shaC, "old": shaA}, wantRows: "+skill.new ~skill.pdf"},
		{name: "upgrade all drops entries without a block", blocks: blocks(), all: true,
			wantCommit: map[string]string{"pdf": shaB, "new": shaC, "old": ""}, wantRows: "+skill.new -skill.old ~skill.pdf"},
		{name: "a changed ref is an error without upgrade", blocks: []Block{{Name: "pdf", URL: u, Ref: "dev"}},
			wantErr: "chronicle lock --upgrade skill.pdf", wantCommit: map[string]string{"pdf": shaA}},
		{name: "a changed URL is an error without upgrade", blocks: []Block{{Name: "pdf", URL: u + "x", Ref: "main"}},
			wantErr: "the block says " + u + "x", wantCommit: map[string]string{"pdf": shaA}},
		{name: "upgrade follows a changed ref", blocks: []Block{{Name: "pdf", URL: u, Ref: "dev"}}, upgrade: map[string]bool{"pdf": true},
			wantCommit: map[string]string{"pdf": shaB}, wantRows: "~skill.pdf"},
		{name: "upgrade at the same tip is unchanged", blocks: []Block{{Name: "pdf", URL: u, Ref: "main"}}, upgrade: map[string]bool{"pdf": true},
			wantCommit: map[string]string{"pdf": shaA}, wantRows: " skill.pdf"},
		{name: "a tip that cannot be read changes nothing", blocks: []Block{{Name: "gone", URL: u}},
			wantErr: "skill.gone: no such ref", wantCommit: map[string]string{"pdf": shaA, "gone": ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := locked()
			tip := tips
			if tc.name == "upgrade at the same tip is unchanged" {
				tip = tipOf(map[string]string{"pdf": shaA})
			}
			changes, err := f.Lock(tc.blocks, tc.upgrade, tc.all, tip)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			var rows []string
			for _, c := range changes {
				rows = append(rows, string(c.Action)+c.Addr())
			}
			if got := strings.Join(rows, " "); got != tc.wantRows {
				t.Errorf("changes %q, want %q", got, tc.wantRows)
			}
			for name, want := range tc.wantCommit {
				if got := f.Skills[name].Commit; got != want {
					t.Errorf("%s locked at %q, want %q", name, got, want)
				}
			}
		})
	}
}
