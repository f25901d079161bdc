package testpeer

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
)

// A T is what the helpers need of a test: testing.TB has it.
type T interface {
	Helper()
	Fatalf(format string, args ...any)
	Skipf(format string, args ...any)
}

// NPM returns the absolute path of rel, a path under
// tools/npm/node_modules (".bin/mcp-inspector",
// "@modelcontextprotocol/server-everything/dist/index.js"). Every npm peer
// runs on node, so node must be on PATH too.
func NPM(t T, rel string) string {
	t.Helper()
	p, err := FindNPM(rel)
	require(t, err)
	return p
}

// Bin returns the absolute path of the program name on PATH; install says
// how to get it ("apt-get install chromium").
func Bin(t T, name, install string) string {
	t.Helper()
	p, err := FindBin(name, install)
	require(t, err)
	return p
}

// Node returns the absolute path of node.
func Node(t T) string {
	t.Helper()
	return Bin(t, "node", nodeInstall)
}

// Chromium returns the absolute path of Debian's chromium, which drives the
// web console's browser tests.
func Chromium(t T) string {
	t.Helper()
	return Bin(t, "chromium", chromiumInstall)
}

// Root makes t one that runs as root (creating files owned by another
// user needs it): CI runs as root, so there a test run by anyone else
// fails; elsewhere it is skipped. why says what needs root.
func Root(t T, why string) {
	t.Helper()
	if os.Geteuid() == 0 {
		return
	}
	require(t, &Missing{Peer: "root", Install: "run the tests as root, as CI does", Err: errors.New(why)})
}

// A Missing error says a peer is not installed and how to install it.
type Missing struct {
	Peer    string
	Install string
	Err     error
}

func (e *Missing) Error() string {
	return fmt.Sprintf("test peer %s is not installed (%v): %s", e.Peer, e.Err, e.Install)
}

func (e *Missing) Unwrap() error { return e.Err }

const (
	npmInstall  = "run make npm (npm ci --prefix tools/npm)"
	nodeInstall = "install Node.js 20 with npm (make tools does, with apt-get), then run make npm"
	// chromiumInstall is how to get the browser of the console's tests.
	chromiumInstall = "apt-get install chromium (make tools does)"
)

// FindNPM is NPM without a test: the path, or a *Missing error.
func FindNPM(rel string) (string, error) {
	if _, err := FindBin("node", nodeInstall); err != nil {
		return "", err
	}
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	p := filepath.Join(root, "tools", "npm", "node_modules", filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		return "", &Missing{Peer: "tools/npm/node_modules/" + rel, Install: npmInstall, Err: errors.Unwrap(err)}
	}
	return p, nil
}

// FindBin is Bin without a test: the path, or a *Missing error.
func FindBin(name, install string) (string, error) {
	p, err := exec.LookPath(name)
	if err == nil {
		p, err = filepath.Abs(p)
	}
	if err != nil {
		return "", &Missing{Peer: name, Install: install, Err: err}
	}
	return p, nil
}

// Condition reports whether the npm peer rel is present, for a testscript
// condition ([!peer:inspector] skip): false when it is missing, and an
// error in CI, which fails the script instead of skipping it.
func Condition(rel string) (bool, error) {
	_, err := FindNPM(rel)
	switch {
	case err == nil:
		return true, nil
	case InCI():
		return false, err
	}
	return false, nil
}

// InCI reports whether the tests run in CI: CI=true (or 1), as .ci/run and
// every CI service set it.
func InCI() bool {
	ci, _ := strconv.ParseBool(os.Getenv("CI"))
	return ci
}

// ModuleRoot returns the folder holding go.mod, above the working directory
// (a test runs in its package's folder).
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("testpeer: no go.mod above the working directory")
		}
		dir = parent
	}
}

// require fails or skips t when err says a peer is missing.
func require(t T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if InCI() {
		t.Fatalf("%v (CI=true: a missing peer fails the test)", err)
		return
	}
	t.Skipf("%v", err)
}

// File returns the absolute path of rel, a path under the module root that
// make npm installs outside tools/npm (the conformance suite's reference
// server keeps its own lockfile: "internal/conformance/server/node_modules/tsx").
func File(t T, rel string) string {
	t.Helper()
	p, err := FindFile(rel)
	require(t, err)
	return p
}

// FindFile is File without a test: the path, or a *Missing error.
func FindFile(rel string) (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	p := filepath.Join(root, filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		return "", &Missing{Peer: rel, Install: "run make npm", Err: errors.Unwrap(err)}
	}
	return p, nil
}
