package state

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMachineIsOptional: the machine that last applied a state is saved
// and read back, and a state file without one reads as none (no refusal).
func TestMachineIsOptional(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	s := New()
	if err := s.Save(path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if strings.Contains(string(b), `"machine"`) {
		t.Errorf("a state that records no machine writes one:\n%s", b)
	}
	if got, err := Load(path); err != nil || got.Machine != nil {
		t.Fatalf("read back %+v, %v", got.Machine, err)
	}
	got, _ := Load(path)
	got.Machine = &Machine{Name: "work-laptop", From: "machine file"}
	if err := got.Save(path); err != nil {
		t.Fatal(err)
	}
	again, err := Load(path)
	if err != nil || again.Machine == nil || *again.Machine != (Machine{Name: "work-laptop", From: "machine file"}) {
		t.Errorf("read back %+v, %v", again.Machine, err)
	}
}
