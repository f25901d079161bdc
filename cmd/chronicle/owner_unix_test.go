//go:build unix

package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/chronicle-dev/chronicle/internal/testpeer"
)

// Run as root on a user's home (sudo chronicle …), everything chronicle
// creates there — ~/.chronicle and all in it, the configuration folder,
// skill links, new tool files — belongs to the home's owner, as the tool
// files it rewrites keep theirs (issue 21, item 8).
func TestRootKeepsTheHomeOwners(t *testing.T) {
	testpeer.Root(t, "it runs chronicle as root on a home owned by another user")
	const uid, gid = 12345, 12345
	bin := chronicleBinary(t)
	root := t.TempDir()
	home := filepath.Join(root, "home")
	if out, err := exec.Command("bash", "../../testdata/fixtures/make-home.sh", home).CombinedOutput(); err != nil {
		t.Fatalf("make-home: %v\n%s", err, out)
	}
	if err := os.MkdirAll(filepath.Join(home, "dotfiles"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("chown", "-R", "12345:12345", home).CombinedOutput(); err != nil {
		t.Fatalf("chown: %v\n%s", err, out)
	}
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME=", "CODEX_HOME=", "CHRONICLE_HOME=", "NO_COLOR=1")
	cfg := filepath.Join(home, "dotfiles", "chronicle")
	run(t, bin, root, env, 0, "init", "--link-skills", cfg)
	run(t, bin, cfg, env, 0, "apply", "--auto-approve")
	if _, err := os.Stat(filepath.Join(home, ".chronicle", "skills")); err != nil {
		t.Fatalf("no central skills after init: %v", err)
	}
	var wrong []string
	err := filepath.WalkDir(home, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := os.Lstat(path)
		if err != nil {
			return err
		}
		if st := info.Sys().(*syscall.Stat_t); st.Uid != uid || st.Gid != gid {
			wrong = append(wrong, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(wrong) > 0 {
		t.Fatalf("%d paths under the home are not the home owner's, among them:\n%q", len(wrong), wrong[:min(len(wrong), 10)])
	}
}
