package jsontooltest

import (
	"path/filepath"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

// Writes runs the edit checks — round trip, symlink, unparsable file,
// missing file created — at p's location of scope whose file ends with
// suffix, each in a fresh home.
func Writes(t *testing.T, p provider.Provider, scope, suffix string, e provider.Entry) {
	t.Run(scope+"/"+suffix, func(t *testing.T) {
		RoundTrip(t, p, Location(t, p, Home(t), scope, suffix), e)
		Symlink(t, p, Location(t, p, Home(t), scope, suffix), e)
		Unparsable(t, p, Location(t, p, Home(t), scope, suffix))
		Missing(t, p, Location(t, p, Home(t), scope, suffix), e)
	})
}

// Fuzz is the body of a FuzzRead target: the given fixture files are the
// seeds, and arbitrary bytes are read at each of p's locations for a
// fixture home.
func Fuzz(f *testing.F, p provider.Provider, fixtures ...string) {
	for _, file := range fixtures {
		f.Add(ReadFile(f, filepath.Join(Fixtures, file)))
	}
	locs := p.Locations(provider.Env{Home: "/home/dev", Projects: []string{"/home/dev/work/api-server"}})
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, loc := range locs {
			FuzzRead(t, p, loc, src)
		}
	})
}
