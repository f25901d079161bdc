package fsys

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// writingOS are the functions of package os that change the filesystem.
// os.OpenFile is among them unless its flags are read-only.
var writingOS = map[string]bool{
	"WriteFile": true, "Rename": true, "Remove": true, "RemoveAll": true,
	"Mkdir": true, "MkdirAll": true, "MkdirTemp": true, "Symlink": true,
	"Link": true, "Chmod": true, "Chown": true, "Lchown": true,
	"Chtimes": true, "Truncate": true, "Create": true, "CreateTemp": true,
}

// readOnlyFlags are the os.OpenFile flags that do not write.
var readOnlyFlags = map[string]bool{"O_RDONLY": true, "O_CLOEXEC": true, "O_SYNC": true}

// seamPackages may write directly: the seam and the mechanics behind it,
// and test helpers that build fixtures.
var seamPackages = []string{"engine/fsys", "engine/safefile", "engine/gitskill/gittest"}

// safefileUses are the packages besides the seam that may call safefile,
// with the one function each may call and why.
var safefileUses = map[string]string{
	// The state lock is a descriptor the kernel locks: a System moves
	// content, it does not hold files open.
	"engine/lock": "OpenFile",
}

// TestEveryWriteThroughTheSeam holds the rule of the seam: no non-test file
// under engine/ or cmd/ outside the seam writes to the filesystem through
// package os, or calls safefile (the mechanics behind fsys.OS) around it.
func TestEveryWriteThroughTheSeam(t *testing.T) {
	root := moduleRoot(t)
	var bad []string
	files := 0
	for _, top := range []string{"engine", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel := filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator)))
			if d.IsDir() {
				if d.Name() == "testdata" || inSeam(rel) {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			files++
			found, err := seamBreaches(path, rel)
			bad = append(bad, found...)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 100 {
		t.Fatalf("only %d files checked under %s: the walk missed the tree", files, root)
	}
	if len(bad) > 0 {
		t.Fatalf("writes around the filesystem seam (engine/fsys):\n%s", strings.Join(bad, "\n"))
	}
}

func inSeam(rel string) bool {
	for _, p := range seamPackages {
		if rel == p {
			return true
		}
	}
	return false
}

// seamBreaches returns file:line and what for every write around the seam
// in the Go file at path (rel: its path in the module).
func seamBreaches(path, rel string) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	osName, safeName := "", ""
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		name := filepath.Base(p)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		switch {
		case p == "os":
			osName = name
		case strings.HasSuffix(p, "/engine/safefile"):
			safeName = name
		}
	}
	if osName == "" && safeName == "" {
		return nil, nil
	}
	pkg := filepath.ToSlash(filepath.Dir(rel))
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		x, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		at := fset.Position(call.Pos())
		where := fmt.Sprintf("%s:%d", rel, at.Line)
		fn := sel.Sel.Name
		switch {
		case osName != "" && x.Name == osName && writingOS[fn]:
			out = append(out, fmt.Sprintf("%s: os.%s", where, fn))
		case osName != "" && x.Name == osName && fn == "OpenFile" && len(call.Args) > 1 && !readOnlyFlagsIn(call.Args[1]):
			out = append(out, fmt.Sprintf("%s: os.OpenFile with flags that write", where))
		case safeName != "" && x.Name == safeName && safefileUses[pkg] != fn:
			out = append(out, fmt.Sprintf("%s: safefile.%s (the mechanics behind fsys.OS)", where, fn))
		}
		return true
	})
	return out, nil
}

// readOnlyFlagsIn reports whether an os.OpenFile flags expression is made only of
// read-only flags; anything it cannot tell (a variable) is not.
func readOnlyFlagsIn(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.SelectorExpr:
		return readOnlyFlags[e.Sel.Name]
	case *ast.BinaryExpr:
		return e.Op == token.OR && readOnlyFlagsIn(e.X) && readOnlyFlagsIn(e.Y)
	case *ast.ParenExpr:
		return readOnlyFlagsIn(e.X)
	}
	return false
}

// moduleRoot is the folder of go.mod above the test's folder.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = parent
	}
}

// The check itself finds each kind of write around the seam, and lets
// reads and the allowed uses pass.
func TestSeamBreachesFindsEachKind(t *testing.T) {
	src := `package x

import (
	"os"
	sf "github.com/chronicle-dev/chronicle/engine/safefile"
)

func f(flags int) {
	os.ReadFile("a")
	os.WriteFile("a", nil, 0)
	os.OpenFile("a", os.O_RDONLY, 0)
	os.OpenFile("a", os.O_WRONLY|os.O_CREATE, 0)
	os.OpenFile("a", flags, 0)
	sf.WriteFile("a", nil, 0)
	sf.OpenFile("a", 0, 0)
}
`
	dir := t.TempDir()
	p := filepath.Join(dir, "x.go")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := seamBreaches(p, "engine/x/x.go")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"engine/x/x.go:10: os.WriteFile",
		"engine/x/x.go:12: os.OpenFile with flags that write",
		"engine/x/x.go:13: os.OpenFile with flags that write",
		"engine/x/x.go:14: safefile.WriteFile (the mechanics behind fsys.OS)",
		"engine/x/x.go:15: safefile.OpenFile (the mechanics behind fsys.OS)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("found:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got, _ := seamBreaches(p, "engine/lock/x.go"); len(got) != 4 {
		t.Fatalf("in engine/lock safefile.OpenFile is allowed: %q", got)
	}
}
