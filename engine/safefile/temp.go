package safefile

import (
	"os"
	"path/filepath"
	"strings"
)

// tempPattern is the os.CreateTemp pattern of the temporary file written
// beside target: .NAME.chronicle-DIGITS (os.CreateTemp puts a decimal
// number where the star is).
func tempPattern(target string) string { return "." + filepath.Base(target) + ".chronicle-*" }

// leftover reports whether name, a file in target's folder, is a temporary
// file chronicle wrote beside target: .NAME.chronicle- and digits only.
func leftover(target, name string) bool {
	prefix := strings.TrimSuffix(tempPattern(target), "*")
	digits, ok := strings.CutPrefix(name, prefix)
	return ok && digits != "" && strings.Trim(digits, "0123456789") == ""
}

// removeLeftovers removes the temporary files an install into target left
// when its process was killed between writing one and renaming it (its
// deferred removal never ran). Only regular files of chronicle's own
// pattern beside target go; a file that cannot be removed stays, as it
// harms nothing.
func removeLeftovers(target string) {
	dir := filepath.Dir(target)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.Type().IsRegular() && leftover(target, e.Name()) {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
