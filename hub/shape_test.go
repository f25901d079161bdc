package hub

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestTheHubsShape checks the shape issue 29 gave the hub (decision 0190)
// on the source as it is now: no package under hub/ over 2,000 non-test
// lines, the hub's type with at most 25 methods, nothing that imports the
// root but cmd/, nothing under hub/ that imports cmd/, hub/relay never
// importing a transport, and engine/ and providers/ depending on no hub/
// package, directly or through another package of the module; and one name
// per concept in engine/, hub/ and cmd/: Catalog, never Catalogue, in a
// name, and at most three types named …Service.
func TestTheHubsShape(t *testing.T) {
	root, module := moduleOf(t)
	pkgs := readPackages(t, root, module)
	hub := module + "/hub"
	under := func(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

	for p, pkg := range pkgs {
		if under(p, hub) && pkg.lines > 2000 {
			t.Errorf("%s: %d non-test lines, more than 2,000", p, pkg.lines)
		}
		for _, imp := range pkg.imports {
			switch {
			case imp == hub && !under(p, module+"/cmd"):
				t.Errorf("%s imports the hub's root: only cmd/ may", p)
			case under(p, hub) && under(imp, module+"/cmd"):
				t.Errorf("%s imports %s: nothing under hub/ imports cmd/", p, imp)
			case under(p, hub+"/relay") && under(imp, hub+"/transport"):
				t.Errorf("%s imports %s: the relay never imports a transport", p, imp)
			}
		}
	}
	for p := range pkgs {
		if !under(p, module+"/engine") && !under(p, module+"/providers") {
			continue
		}
		for _, dep := range depsOf(pkgs, p) {
			if under(dep, hub) {
				t.Errorf("%s depends on %s: engine/ and providers/ import no hub/ package", p, dep)
			}
		}
	}
	var services []string
	methods := 0
	for p, pkg := range pkgs {
		if !under(p, module+"/engine") && !under(p, hub) && !under(p, module+"/cmd") {
			continue
		}
		for _, n := range pkg.names {
			if strings.Contains(n.name, "Catalogue") {
				t.Errorf("%s: %s: the concept is spelled Catalog in names", p, n.name)
			}
			if n.isType && strings.HasSuffix(n.name, "Service") {
				services = append(services, p+": "+n.name)
			}
		}
		if p == hub {
			methods = pkg.hubMethods
		}
	}
	if len(services) > 3 {
		t.Errorf("%d types named …Service, more than three: %v", len(services), services)
	}
	if methods > 25 {
		t.Errorf("*Hub has %d methods, more than 25", methods)
	}
	if pkgs[hub] == nil || len(pkgs[hub].imports) == 0 || methods == 0 {
		t.Fatalf("the hub's root package was not read: %+v", pkgs[hub]) // the checks above would pass on nothing
	}
}

// A pkgShape is what the test reads of one package: its non-test lines,
// the module's packages it imports, the names it declares or uses, and
// the methods it declares on a type named Hub.
type pkgShape struct {
	lines      int
	imports    []string
	names      []name
	hubMethods int
}

// A name is an identifier of a package's source; isType: a type it
// declares.
type name struct {
	name   string
	isType bool
}

// moduleOf returns the module's root folder (this package's parent) and
// its path, from go.mod.
func moduleOf(t *testing.T) (root, module string) {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := bytes.Cut(b, []byte("\n"))
	module = strings.TrimSpace(strings.TrimPrefix(string(first), "module "))
	if module == "" {
		t.Fatalf("%s: no module line", filepath.Join(root, "go.mod"))
	}
	return root, module
}

// readPackages reads every package of the module under root, each file
// once: each folder's non-test Go files, outside testdata and what tools
// install.
func readPackages(t *testing.T, root, module string) map[string]*pkgShape {
	t.Helper()
	pkgs := map[string]*pkgShape{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "testdata", "node_modules", "vendor":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		ip := path.Join(module, filepath.ToSlash(rel))
		pkg := pkgs[ip]
		if pkg == nil {
			pkg = &pkgShape{}
			pkgs[ip] = pkg
		}
		pkg.lines += bytes.Count(src, []byte("\n"))
		for _, s := range f.Imports {
			if imp, _ := strconv.Unquote(s.Path.Value); imp == module || strings.HasPrefix(imp, module+"/") {
				pkg.imports = append(pkg.imports, imp)
			}
		}
		readNames(f, pkg)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// readNames adds f's identifiers, and its methods on Hub, to pkg.
func readNames(f *ast.File, pkg *pkgShape) {
	types := map[*ast.Ident]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.TypeSpec:
			types[x.Name] = true
		case *ast.FuncDecl:
			if x.Recv != nil && len(x.Recv.List) > 0 {
				typ := x.Recv.List[0].Type
				if star, ok := typ.(*ast.StarExpr); ok {
					typ = star.X
				}
				if id, ok := typ.(*ast.Ident); ok && id.Name == "Hub" {
					pkg.hubMethods++
				}
			}
		case *ast.Ident:
			pkg.names = append(pkg.names, name{name: x.Name, isType: types[x]})
		}
		return true
	})
}

// depsOf returns the module's packages p depends on, directly or not.
func depsOf(pkgs map[string]*pkgShape, p string) []string {
	seen := map[string]bool{}
	var visit func(string)
	visit = func(p string) {
		if pkgs[p] == nil {
			return
		}
		for _, imp := range pkgs[p].imports {
			if !seen[imp] {
				seen[imp] = true
				visit(imp)
			}
		}
	}
	visit(p)
	deps := make([]string, 0, len(seen))
	for d := range seen {
		deps = append(deps, d)
	}
	sort.Strings(deps)
	return deps
}
