//go:build unix

package secret

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEnvFileMustBePrivate: ~/.chronicle/env readable by others is refused
// with its name, its mode and the fix, and none of its values is used.
func TestEnvFileMustBePrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "env")
	os.WriteFile(path, []byte("TOKEN=from-a-shared-file\n"), 0o600)
	for _, mode := range []os.FileMode{0o644, 0o640, 0o604, 0o660} {
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		vals, err := ReadEnvFile(path)
		want := fmt.Sprintf("%s holds secrets but has mode %04o, which lets other users read it: run chmod 600 %s", path, mode, path)
		if err == nil || err.Error() != want || vals != nil {
			t.Errorf("mode %04o: %v, %v\nwant error %q", mode, vals, err, want)
		}
		r := Resolver{Env: func(string) (string, bool) { return "", false }, EnvFile: path}
		if got, err := r.Resolve(FromRef(Ref{KindEnv, "TOKEN"})); err == nil || got != "" || !strings.Contains(err.Error(), "chmod 600") {
			t.Errorf("mode %04o: Resolve = %q, %v", mode, got, err)
		}
	}
	for _, mode := range []os.FileMode{0o600, 0o400} {
		os.Chmod(path, mode)
		if vals, err := ReadEnvFile(path); err != nil || vals["TOKEN"] != "from-a-shared-file" {
			t.Errorf("mode %04o: %v, %v", mode, vals, err)
		}
	}
}
