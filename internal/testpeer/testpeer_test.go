package testpeer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a T that records how the helper ended the test.
type recorder struct{ fatal, skip string }

func (r *recorder) Helper()                           {}
func (r *recorder) Fatalf(format string, args ...any) { r.fatal = fmt.Sprintf(format, args...) }
func (r *recorder) Skipf(format string, args ...any)  { r.skip = fmt.Sprintf(format, args...) }

func TestMissingPeerSkipsOutsideCIAndFailsInCI(t *testing.T) {
	const rel = "@chronicle/no-such-peer/index.js"
	for _, tc := range []struct {
		ci         string
		fail, skip bool
	}{
		{ci: "", skip: true},
		{ci: "false", skip: true},
		{ci: "true", fail: true},
		{ci: "1", fail: true},
	} {
		t.Run("CI="+tc.ci, func(t *testing.T) {
			t.Setenv("CI", tc.ci)
			for _, find := range []func(T) string{
				func(t T) string { return NPM(t, rel) },
				func(t T) string { return Bin(t, "chronicle-no-such-program", "install it") },
			} {
				var r recorder
				if p := find(&r); p != "" {
					t.Fatalf("a missing peer has the path %q", p)
				}
				msg := r.skip + r.fatal
				if (r.fatal != "") != tc.fail || (r.skip != "") != tc.skip {
					t.Fatalf("fatal %q, skip %q", r.fatal, r.skip)
				}
				if !strings.Contains(msg, "is not installed") || !strings.Contains(msg, "no-such") {
					t.Errorf("the message does not say what is missing: %q", msg)
				}
			}
			ok, err := Condition(rel)
			if ok || (err != nil) != tc.fail {
				t.Errorf("Condition = %v, %v", ok, err)
			}
		})
	}
}

func TestPresentPeer(t *testing.T) {
	t.Setenv("CI", "true")
	// go.mod is at the module root: present wherever the tests run.
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	// The test binary's own folder stands in for a program on PATH.
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", filepath.Dir(exe))
	var r recorder
	if got := Bin(&r, filepath.Base(exe), "n/a"); got != exe || r.fatal != "" || r.skip != "" {
		t.Fatalf("Bin = %q (fatal %q, skip %q), want %q", got, r.fatal, r.skip, exe)
	}
}
