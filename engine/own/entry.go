package own

import (
	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
)

// EntryProjection is what chronicle owns of a tool's entry e: the entry as
// the tool's provider renders it — the keys chronicle models — with only
// the extra keys chronicle wrote (extra). A key the tool adds to the entry
// (Cline's autoApprove when the user clicks "Always allow") is the tool's:
// it is not in the projection, so it is never drift, and a rewrite keeps
// it. An entry the provider cannot render is owned whole.
func EntryProjection(p provider.Provider, e provider.Entry, extra []string) []byte {
	e.Extra = e.Extra.Only(extra)
	out, err := p.Render(e)
	if err != nil {
		return e.Canonical
	}
	return out
}

// EntryHash is the hash of EntryProjection: what the state records of an
// entry chronicle wrote, and what a later plan compares.
func EntryHash(p provider.Provider, e provider.Entry, extra []string) string {
	return toolfile.Hash(EntryProjection(p, e, extra))
}

// EntryRecord is the ledger's record of the entry chronicle wrote (rec),
// found now as found (nil: absent). A record older than state format 4
// hashed the whole entry: it counts as unchanged when the whole entry is as
// written, or when the owned projection is what was rendered then, and is
// compared over the projection from then on — upgraded without a false
// drift.
func EntryRecord(p provider.Provider, rec *state.Entry, found *provider.Entry) *Record {
	if rec == nil {
		return nil
	}
	r := &Record{Address: rec.Address, Hash: rec.Hash, Rendered: rec.Rendered}
	if rec.WholeHash && found != nil {
		now := EntryHash(p, *found, rec.Extra)
		if observe.EntryHash(*found) == rec.Hash || now == rec.Rendered {
			r.Hash = now
		}
	}
	return r
}
