package apply

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/markers"
	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
)

// A blockTransaction makes every block change of one shared file at once,
// as a tool file's transaction does for entries:
//
//  1. read the file and parse its markers (markers that do not pair up
//     fail every change, touching nothing);
//  2. check each change's Before against its own block only: text the
//     user changed outside the blocks is no reason to stop, a block edited
//     since the plan is (that change fails alone);
//  3. splice every remaining change into the bytes read;
//  4. back up the bytes first read, then install the new bytes only while
//     the file still holds what was read (fsys.Install); when another
//     program wrote it meanwhile, its version is read, checked and spliced
//     again, and installed the same way.
//
// A file chronicle created for its blocks, left with nothing in it, is
// removed instead.
type blockTransaction struct {
	a       *applier
	file    string
	changes []plan.Change
	pending []int
	errs    []error
	created bool // the file is (or will be) chronicle's creation
}

// blockChanges carries out the block changes of one shared file.
func (a *applier) blockChanges(changes []plan.Change) []result {
	t := &blockTransaction{a: a, file: changes[0].Block.File, changes: changes, errs: make([]error, len(changes))}
	for i := range changes {
		t.pending = append(t.pending, i)
	}
	for _, r := range a.st.BlocksIn(t.file) {
		t.created = t.created || r.Created
	}
	final, err := t.run()
	if err != nil {
		out := make([]result, len(changes))
		for i, c := range changes {
			e := t.errs[i]
			if e == nil {
				e = fmt.Errorf("%s: %w", c.Address, &FileError{File: t.file, Err: err})
			}
			a.failed[c.Address] = e
			out[i] = result{c, e}
		}
		return out
	}
	t.record(final)
	return a.report(changes, t.errs)
}

// run makes the changes and returns the file's content as installed (nil
// when the file was removed).
func (t *blockTransaction) run() ([]byte, error) {
	sys := t.a.sys
	first, err := sys.ReadVersion(t.file)
	if err != nil {
		return nil, err
	}
	if !first.Exists {
		t.created = true
	}
	base := first
	backedUp := false
	for range attempts {
		next, err := t.splice(base)
		if err != nil {
			return nil, err
		}
		if len(t.pending) == 0 || (base.Exists && bytes.Equal(next, base.Data)) || (!base.Exists && len(next) == 0) {
			return base.Data, nil
		}
		if !backedUp {
			if err := t.a.backupBytes(t.file, first.Data, first.Exists); err != nil {
				return nil, err
			}
			backedUp = true
		}
		if len(next) == 0 && t.created && base.Exists {
			return nil, t.remove(base)
		}
		if !base.Exists {
			if err := sys.MkdirAll(filepath.Dir(t.file), 0o755); err != nil {
				return nil, err
			}
		}
		in, err := sys.Install(t.file, next, 0o644, base)
		if err != nil {
			return nil, err
		}
		if in.Done {
			return next, nil
		}
		base = in.Now // another program wrote the file: splice its version
	}
	return nil, errors.New("the file kept changing while chronicle wrote it; nothing was changed: try again")
}

// remove deletes the file chronicle created once its last block goes,
// when it still holds what was read.
func (t *blockTransaction) remove(base fsys.Version) error {
	now, err := t.a.sys.ReadVersion(t.file)
	if err != nil {
		return err
	}
	if !bytes.Equal(now.Data, base.Data) {
		return fmt.Errorf("the file changed while chronicle removed its last block; nothing was changed: run chronicle plan again")
	}
	if err := t.a.sys.Remove(t.file); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// splice checks each pending change against base and returns base with
// the changes that still hold made; the others fail and leave pending.
func (t *blockTransaction) splice(base fsys.Version) ([]byte, error) {
	parsed, err := markers.Parse(t.file, base.Data)
	if err != nil {
		return nil, err
	}
	f := &toolfile.File{Path: t.file, Exists: base.Exists, Data: base.Data}
	if base.Exists {
		f.Info, _ = toolfile.StatSettled(t.a.sys, t.file)
	}
	var keep []int
	var ops []markers.Op
	wrap := -1
	for _, i := range t.pending {
		c := t.changes[i]
		now := observe.BlockIn(f, parsed, c.Block.ID)
		if err := checkBlock(c, now); err != nil {
			t.errs[i] = err
			continue
		}
		keep = append(keep, i)
		switch {
		case c.Block.RecordOnly:
		case c.Block.Wrap:
			wrap = i
		case c.Action == plan.Delete:
			ops = append(ops, markers.Op{ID: c.Block.ID})
		default:
			body := c.Block.Body
			ops = append(ops, markers.Op{ID: c.Block.ID, Body: &body})
		}
	}
	t.pending = keep
	src := base.Data
	if wrap >= 0 {
		c := t.changes[wrap]
		if len(parsed.Blocks()) > 0 {
			t.errs[wrap] = fmt.Errorf("%s: %s has blocks since the plan; nothing was wrapped (run chronicle plan again)", c.Address, t.file)
			t.pending = slices.DeleteFunc(t.pending, func(i int) bool { return i == wrap })
		} else {
			src = markers.Wrap(c.Block.ID, c.Block.Body, parsed.CRLF())
		}
	}
	return markers.Splice(t.file, src, ops)
}

// checkBlock compares a block (or a rule) now with what the plan saw of it: the block
// itself (absent, or its body), and the file's mode, links and owner when
// the file was there at both times. The rest of the file may have changed:
// the change is spliced into it again.
func checkBlock(c plan.Change, now observe.Observation) error {
	before := *c.Before
	same := before.Kind == now.Kind && before.Hash == now.Hash
	if same && before.File != nil && now.File != nil && before.File.Exists && now.File.Exists {
		b, n := *before.File, *now.File
		same = b.Mode == n.Mode && b.Links == n.Links && b.UID == n.UID && b.GID == n.GID
	}
	if c.Block != nil && c.Block.Wrap && now.Kind == observe.Absent {
		same = true // the text around is checked when it is wrapped
	}
	if same {
		return nil
	}
	return &changedError{addr: c.Address, path: c.Path, before: before, now: now}
}

// record writes the outcome of each change made into the state.
func (t *blockTransaction) record(final []byte) {
	var parsed *markers.File
	if final != nil {
		parsed, _ = markers.Parse(t.file, final)
	}
	for _, i := range t.pending {
		c := t.changes[i]
		if c.Action == plan.Delete {
			t.a.st.ForgetBlock(t.file, c.Block.ID)
			continue
		}
		hash := observe.BodyHash(c.Block.Body)
		if parsed != nil {
			if b, ok := parsed.Block(c.Block.ID); ok {
				hash = observe.BodyHash(parsed.Body(b))
			}
		}
		t.a.st.SetBlock(state.Block{File: t.file, ID: c.Block.ID, Hash: hash, WantedBy: slices.Clone(c.Block.Wanted), Created: t.created})
	}
	if t.created {
		for i := range t.a.st.Blocks {
			if t.a.st.Blocks[i].File == t.file {
				t.a.st.Blocks[i].Created = true
			}
		}
	}
}
