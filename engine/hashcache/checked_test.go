package hashcache

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"
)

func TestCheckedRemembersWhatApplySaved(t *testing.T) {
	path := filepath.Join(t.TempDir(), CheckedFileName)
	a, b := sha256.Sum256([]byte("a")), sha256.Sum256([]byte("b"))
	c := LoadChecked(path)
	c.Add(a)
	if !c.Passed(a) || c.Passed(b) {
		t.Fatal("Passed does not answer what Add was told")
	}
	if again := LoadChecked(path); again.Passed(a) {
		t.Fatal("remembered before Save")
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if again := LoadChecked(path); !again.Passed(a) || again.Passed(b) {
		t.Fatal("not remembered after Save")
	}
	for i := range maxChecked {
		c.Add(sha256.Sum256([]byte{byte(i), 1}))
	}
	c.Save()
	if again := LoadChecked(path); again.Passed(a) || len(again.sums) != maxChecked {
		t.Fatalf("holds %d sums and the oldest is still there; want the newest %d", len(again.sums), maxChecked)
	}
	os.WriteFile(path, []byte("chronicle checked configurations 1\nshort"), 0o600)
	if again := LoadChecked(path); len(again.sums) != 0 {
		t.Fatal("a torn file remembers something")
	}
}
