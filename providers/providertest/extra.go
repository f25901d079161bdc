package providertest

import (
	"bytes"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

// ExtraKeys checks how p carries declared extra keys, on the entry name of
// loc's existing file: written as given, read back so that the entry
// renders as declared (a second plan is clean), the keys chronicle does not
// model that the entry had kept, the rest of the file byte for byte as it
// was; a key dropped from extra (Edit.Drop) removed and nothing else; the
// same edit again changing nothing; and a key p models refused with an
// *provider.OwnedKeyError. extra needs two keys or more.
func ExtraKeys(t *testing.T, p provider.Provider, loc provider.Location, name string, extra provider.Extra) {
	t.Helper()
	before := readFile(t, loc.File)
	stored := entry(t, p, loc, name)
	declared := stored
	declared.Extra = maps.Clone(extra)
	if err := Put(p, loc, declared); err != nil {
		t.Fatal(err)
	}
	written := readFile(t, loc.File)
	got := entry(t, p, loc, name)
	if !got.Extra.Holds(extra) {
		t.Fatalf("read back extra %#v, want it to hold %#v", got.Extra, extra)
	}
	for k, v := range stored.Extra {
		if _, declared := extra[k]; !declared && !provider.SameValue(got.Extra[k], v) {
			t.Fatalf("the entry's own key %q became %#v, want %#v (kept)", k, got.Extra[k], v)
		}
	}
	shown := got
	shown.Extra = got.Extra.Only(extra.Keys())
	if a, b := render(t, p, shown), render(t, p, declared); !bytes.Equal(a, b) {
		t.Fatalf("the entry read back renders\n%s\nwant\n%s", a, b)
	}
	if a, b := without(t, p, loc, before, name), without(t, p, loc, written, name); !bytes.Equal(a, b) {
		t.Fatalf("writing extra keys changed more than the entry:\n--- before\n%s\n--- after\n%s", a, b)
	}

	// Dropping one key removes it, and only it.
	keys := extra.Keys()
	gone := keys[0]
	less := declared
	less.Extra = maps.Clone(extra)
	delete(less.Extra, gone)
	if err := Apply(p, loc.File, provider.Edit{Location: loc, Name: name, Entry: &less, Drop: []string{gone}}); err != nil {
		t.Fatal(err)
	}
	dropped := readFile(t, loc.File)
	got = entry(t, p, loc, name)
	if _, still := got.Extra[gone]; still {
		t.Fatalf("dropped extra key %q is still in the entry", gone)
	}
	if !got.Extra.Holds(less.Extra) {
		t.Fatalf("after dropping %q, extra is %#v, want it to hold %#v", gone, got.Extra, less.Extra)
	}
	for k, v := range stored.Extra {
		if _, declared := extra[k]; !declared && !provider.SameValue(got.Extra[k], v) {
			t.Fatalf("dropping %q took the entry's own key %q", gone, k)
		}
	}
	if a, b := without(t, p, loc, before, name), without(t, p, loc, dropped, name); !bytes.Equal(a, b) {
		t.Fatalf("dropping an extra key changed more than the entry:\n--- before\n%s\n--- after\n%s", a, b)
	}
	out, err := Edit(p, loc.File, provider.Edit{Location: loc, Name: name, Entry: &less})
	if err != nil || !bytes.Equal(out, dropped) {
		t.Fatalf("the same edit again changed the file (%v):\n%s", err, out)
	}

	// A key the provider models cannot be written through extra.
	for k := range p.OwnedKeys() {
		owned := declared
		owned.Extra = provider.Extra{k: "x"}
		var oe *provider.OwnedKeyError
		if _, err := Edit(p, loc.File, Set(loc, owned)); !errors.As(err, &oe) || oe.Key != k {
			t.Fatalf("extra key %q, which %s models: got %v, want an OwnedKeyError", k, p.Name(), err)
		}
		if _, err := p.Render(owned); !errors.As(err, &oe) {
			t.Fatalf("Render of extra key %q, which %s models: got %v, want an OwnedKeyError", k, p.Name(), err)
		}
	}
}

func entry(t *testing.T, p provider.Provider, loc provider.Location, name string) provider.Entry {
	t.Helper()
	entries, err := Read(p, loc)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name == name {
			return e
		}
	}
	t.Fatalf("%s has no entry %q", loc.File, name)
	return provider.Entry{}
}

func render(t *testing.T, p provider.Provider, e provider.Entry) []byte {
	t.Helper()
	b, err := p.Render(e)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// without returns src with the entry name removed by p, so that two
// versions of a file can be compared outside that entry.
func without(t *testing.T, p provider.Provider, loc provider.Location, src []byte, name string) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), filepath.Base(loc.File))
	if err := os.WriteFile(path, src, 0o600); err != nil {
		t.Fatal(err)
	}
	at := loc
	at.File = path
	if err := Remove(p, at, name); err != nil {
		t.Fatal(err)
	}
	return readFile(t, path)
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
