package apply

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/own"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
)

// attempts bounds how often a transaction starts over when another program
// keeps writing the file.
const attempts = 32

// settle is how long after installing a file apply looks at it again: long
// enough for a program that read the file just before the install (Claude
// Code rewrites ~/.claude.json every few milliseconds) to have written its
// version, which would have dropped chronicle's entries.
const settle = 10 * time.Millisecond

// A transaction writes every change to one tool file at once:
//
//  1. read the file once;
//  2. check each change's Before against what was read (a change whose
//     entry is no longer what the plan saw fails alone, touching nothing);
//  3. splice every remaining change into those bytes with the provider, which
//     verifies the result is exactly the intended change;
//  4. back up the bytes that were read, then install the new bytes only
//     while the file still holds the bytes read (fsys.Install: an atomic
//     exchange, exchanged back at once if it displaced anything else);
//  5. if another program wrote meanwhile, its version is what the install
//     hands back: it is checked against Before again, the changes are
//     spliced onto it, and installed the same way (bounded, with a short
//     backoff), so nothing that program wrote is lost.
//
// Where the platform cannot exchange atomically the install is a compare
// and a rename, and a write landing between the two is lost (see
// docs/decisions/0006-tool-file-transactions.md).
type transaction struct {
	a       *applier
	p       provider.Provider
	file    string
	changes []plan.Change
	// pending holds the indexes of the changes still to make.
	pending []int
	errs    []error
	// made maps a change to the entry hash it installed ("absent" for a
	// removal), once one install held it: a later look that finds exactly
	// that is the change made, not a target changed since the plan.
	made map[int]string
	// created says the install created the file: none was there.
	created bool
}

// fileChanges carries out the entry changes of one file as a transaction.
func (a *applier) fileChanges(changes []plan.Change) []result {
	t := a.newTransaction(changes)
	return t.finish(t.install())
}

// A written is what a transaction's install left in the file.
type written struct {
	final []byte
	err   error
}

func (a *applier) newTransaction(changes []plan.Change) *transaction {
	t := &transaction{a: a, file: changes[0].Entry.Location.File, changes: changes, errs: make([]error, len(changes))}
	t.p = a.tools[changes[0].Entry.Location.Tool]
	for i, c := range changes {
		if err := a.ruleDependency(c); err != nil {
			t.errs[i] = err // a rule denying one of its tools failed
			continue
		}
		t.pending = append(t.pending, i)
	}
	return t
}

// install does the transaction's filesystem work. It touches only its own
// file (and the backup set, under its lock), so the transactions of
// different files may install at once.
func (t *transaction) install() written {
	if t.p == nil {
		return written{err: fmt.Errorf("no provider for tool %s", t.changes[0].Entry.Location.Tool)}
	}
	final, err := t.run()
	return written{final, err}
}

// finish records what install wrote into the state and reports each change.
func (t *transaction) finish(w written) []result {
	a, changes := t.a, t.changes
	if w.err != nil {
		return t.failAll(w.err)
	}
	if err := t.record(w.final); err != nil {
		return t.failAll(err)
	}
	if t.created {
		// Removed again with chronicle's last entry in it, when nothing
		// else is left (engine/plan's emptied files).
		a.st.AddCreated(t.file)
	}
	return a.report(changes, t.errs)
}

// A FileError is why a tool file's transaction failed as a whole (the file
// could not be read or parsed, as while another program rewrites it in
// place): every change of that file fails with the same FileError, so that
// a report can say it once per file.
type FileError struct {
	File string
	Err  error
}

func (e *FileError) Error() string {
	msg := e.Err.Error()
	if strings.HasPrefix(msg, e.File) {
		return msg // a parse error names the file (and the line) itself
	}
	return e.File + ": " + msg
}

func (e *FileError) Unwrap() error { return e.Err }

// failAll fails every change still pending with err; the journal keeps
// their intents, since the file may have been written.
func (t *transaction) failAll(err error) []result {
	out := make([]result, len(t.changes))
	for i, c := range t.changes {
		e := t.errs[i]
		if e == nil {
			e = fmt.Errorf("%s: %w", c.Address, &FileError{File: t.file, Err: err})
		}
		t.a.failed[c.Address] = e
		out[i] = result{c, e}
	}
	return out
}

// run makes the changes and returns the content installed (or found, when
// nothing needed writing).
func (t *transaction) run() ([]byte, error) {
	sys := t.a.sys
	first, err := sys.ReadVersion(t.file)
	if err != nil {
		return nil, err
	}
	// The backup holds the bytes read first. It is written before the
	// install window opens, and the file is read again after it, so the
	// time the backup takes is no time for another program to slip in.
	backedUp := false
	base := first
	var next []byte
	spliced := false // next is base with the changes made
	for attempt := range attempts {
		if !spliced {
			if next, err = t.splice(base.Data, base.Exists); err != nil {
				return nil, err
			}
			if len(t.pending) == 0 || (base.Exists && bytes.Equal(next, base.Data)) {
				return base.Data, nil
			}
			spliced = true
		}
		if !backedUp {
			t.a.backupsMu.Lock()
			err := t.a.backups.AddBytes(t.file, first.Data, modeOf(sys, t.file), first.Exists)
			t.a.backupsMu.Unlock()
			if err != nil {
				return nil, err
			}
			backedUp = true
			if base, err = sys.ReadVersion(t.file); err != nil {
				return nil, err
			}
			if spliced = same(base, first); spliced {
				base.Data = first.Data // one copy of a large file, not two
			} // else written meanwhile: splice that version
			continue
		}
		if t.inPlace() {
			if err := sys.WriteInPlace(t.file, next); err != nil {
				return nil, err
			}
			return next, nil
		}
		if !base.Exists {
			if err := sys.MkdirAll(filepath.Dir(t.file), dirMode(t.changes[0].Entry.Location)); err != nil {
				return nil, err
			}
		}
		// What the install will make, so that finding it later (another
		// program rewrote the file on top of it) is not taken for a change.
		t.remember(next)
		in, err := sys.Install(t.file, next, t.newFileMode(), base)
		if err != nil {
			return nil, err
		}
		if in.Done {
			t.created = t.created || !base.Exists
			// A program that read the file before the install and writes
			// its own version after it would drop what was just written:
			// look again once such a write would have landed, and redo the
			// edit on top of it if the entries are gone.
			time.Sleep(settle)
			now, err := sys.ReadVersion(t.file)
			if err != nil {
				return nil, err
			}
			if !now.Exists || bytes.Equal(now.Data, next) {
				return next, nil
			}
			if t.holds(now.Data) {
				return now.Data, nil
			}
			base, spliced = now, false
			continue
		}
		// Another program wrote the file since it was read; the install
		// left its version in place. Edit that version at once; when it
		// keeps writing faster than that, pause a little longer each time
		// and start from the file as it is after the pause.
		base, spliced = in.Now, false
		if attempt >= 4 {
			time.Sleep(time.Duration(1<<min(attempt-4, 6)) * time.Millisecond)
			if base, err = sys.ReadVersion(t.file); err != nil {
				return nil, err
			}
		}
	}
	return nil, errors.New("the file kept changing while chronicle wrote it (another program rewrites it constantly); nothing was changed: try again")
}

// same reports whether two reads of a file found the same bytes: a splice
// of one is a splice of the other, so that a file nobody else writes is
// spliced once (each splice of a large file parses it, edits it and parses
// the result again).
func same(a, b fsys.Version) bool {
	return a.Exists == b.Exists && bytes.Equal(a.Data, b.Data)
}

// remember records, for each pending change, the entry hash next holds.
func (t *transaction) remember(next []byte) {
	t.made = map[int]string{}
	doc, err := t.p.Parse(t.file, next)
	if err != nil {
		return
	}
	listing := toolfile.NewListing(doc, toolfile.NewView(t.a.sys))
	for _, i := range t.pending {
		loc, name := t.changes[i].Entry.Location, t.changes[i].Entry.Entry.Name
		if e, err := listing.Find(loc, name); err == nil {
			o := observe.Found(nil, e)
			t.made[i] = o.Hash + "|" + o.Kind
		}
	}
}

// holds reports whether data still holds every entry the pending changes
// installed (and lacks the ones they removed).
func (t *transaction) holds(data []byte) bool {
	doc, err := t.p.Parse(t.file, data)
	if err != nil {
		return false
	}
	listing := toolfile.NewListing(doc, toolfile.NewView(t.a.sys))
	for _, i := range t.pending {
		loc, name := t.changes[i].Entry.Location, t.changes[i].Entry.Entry.Name
		e, err := listing.Find(loc, name)
		if err != nil {
			return false
		}
		o := observe.Found(nil, e)
		if t.made[i] != o.Hash+"|"+o.Kind {
			return false
		}
	}
	return true
}

// splice checks every pending change against src and returns src with the
// changes that still hold made. Changes whose target is no longer what the
// plan saw are failed and dropped from pending.
func (t *transaction) splice(src []byte, exists bool) ([]byte, error) {
	var data []byte
	if exists {
		data = src
	}
	doc, err := t.p.Parse(t.file, data)
	if err != nil {
		return nil, err
	}
	listing := toolfile.NewListing(doc, toolfile.NewView(t.a.sys))
	f := &toolfile.File{Path: t.file, Exists: exists, Data: data}
	if exists {
		f.Info, _ = toolfile.StatSettled(t.a.sys, t.file)
	}
	var keep []int
	var edits []provider.Edit
	for _, i := range t.pending {
		c := t.changes[i]
		var found *provider.Entry
		if exists {
			if found, err = listing.Find(c.Entry.Location, c.Entry.Entry.Name); err != nil {
				return nil, err
			}
		}
		now := observe.Found(f, found)
		if m, ok := t.made[i]; ok && m == now.Hash+"|"+now.Kind {
			// Made by an earlier install of this transaction and still so.
			keep = append(keep, i)
			continue
		}
		if err := check(c, now); err != nil {
			t.errs[i] = err
			continue
		}
		if !c.Entry.RecordOnly {
			edit, err := t.a.edit(c)
			if err != nil {
				t.errs[i] = err
				continue
			}
			edits = append(edits, edit)
		}
		keep = append(keep, i)
	}
	t.pending = keep
	if len(edits) == 0 {
		return src, nil
	}
	return doc.Edit(edits)
}

// record writes the outcome of each change made into the state, with the
// hash of the entry as the installed bytes hold it.
func (t *transaction) record(final []byte) error {
	doc, err := t.p.Parse(t.file, final)
	if err != nil {
		return err
	}
	listing := toolfile.NewListing(doc, toolfile.NewView(t.a.sys))
	created := t.a.st.Created(t.file) // the flag outlives the entry that created the file
	for _, i := range t.pending {
		c := t.changes[i]
		spec := c.Entry
		t.a.forgetEntry(c.Address)
		if spec.Takeover != "" {
			t.a.forgetEntry(spec.Takeover)
		}
		if c.Action == plan.Delete {
			continue
		}
		written, err := listing.Find(spec.Location, spec.Entry.Name)
		if err != nil {
			return err
		}
		if written == nil {
			t.errs[i] = fmt.Errorf("%s: %s does not hold the entry after writing", c.Address, t.file)
			continue
		}
		loc := spec.Location
		t.a.st.Entries = append(t.a.st.Entries, state.Entry{
			Address: c.Address, Tool: loc.Tool, Scope: loc.Scope, Project: loc.Project, File: loc.File,
			KeyPath: loc.KeyPath, Name: spec.Entry.Name, Hash: own.EntryHash(t.p, *written, spec.Entry.Extra.Keys()), Rendered: spec.Rendered,
			Extra: spec.Entry.Extra.Keys(), Created: created,
		})
	}
	return nil
}

// inPlace reports whether the file is to be written in place (a
// hard-linked file under --replace).
func (t *transaction) inPlace() bool {
	for _, i := range t.pending {
		if t.changes[i].Entry.InPlace {
			return true
		}
	}
	return false
}

func (a *applier) forgetEntry(addr string) {
	a.st.Entries = slices.DeleteFunc(a.st.Entries, func(x state.Entry) bool { return x.Address == addr })
}

func modeOf(sys fsys.Reader, path string) fs.FileMode {
	if info, err := sys.Stat(path); err == nil {
		return info.Mode().Perm()
	}
	return 0
}

// fileMode is the mode of a config file chronicle creates: private at user
// level (it may hold a server's literal environment), readable in a
// project, where it is meant to be shared.
func fileMode(loc provider.Location) fs.FileMode {
	if loc.Scope == provider.ScopeProject {
		return 0o644
	}
	return 0o600
}

// newFileMode is the mode of the tool file the transaction creates:
// fileMode, but private when an entry it writes carries the hub's token.
func (t *transaction) newFileMode() fs.FileMode {
	for _, i := range t.pending {
		if t.changes[i].Entry.HubToken != "" && t.changes[i].Action != plan.Delete {
			return 0o600
		}
	}
	return fileMode(t.changes[0].Entry.Location)
}

func dirMode(loc provider.Location) fs.FileMode {
	if loc.Scope == provider.ScopeProject {
		return 0o755
	}
	return 0o700
}

// report records the outcome of each change of a file written: errs[i] is
// why changes[i] failed, nil when it was made (then marked done).
func (a *applier) report(changes []plan.Change, errs []error) []result {
	out := make([]result, len(changes))
	for i, c := range changes {
		out[i] = result{c, errs[i]}
		if errs[i] != nil {
			a.fail(c, errs[i])
			continue
		}
		if err := a.done(c.Address); err != nil {
			out[i].err = err
		}
	}
	return out
}
