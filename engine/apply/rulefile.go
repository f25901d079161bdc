package apply

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
)

// A ruleTransaction makes every rule change of one list at once (Devin's
// permissions.deny, which the user shares: docs/decisions/0151), as a
// block transaction does for blocks:
//
//  1. read the file and the list (a file that does not parse, or a list
//     that is not one, fails every change, touching nothing);
//  2. check each change's Before against its own rule only: rules the user
//     added or removed meanwhile are no reason to stop, the change's own
//     rule added or removed since the plan is (that change fails alone);
//  3. add or remove each remaining rule with the list editor, which keeps
//     every other byte and verifies the result;
//  4. back up the bytes first read, then install the new bytes only while
//     the file still holds what was read (fsys.Install); when Devin wrote
//     it meanwhile, its version is read, checked and edited again.
type ruleTransaction struct {
	a       *applier
	lists   provider.ListEditor
	list    provider.DenyList
	changes []plan.Change
	pending []int
	errs    []error
}

// ruleChanges carries out the rule changes of one list.
func (a *applier) ruleChanges(changes []plan.Change) []result {
	first := changes[0].Rule
	t := &ruleTransaction{a: a, list: first.List, changes: changes, errs: make([]error, len(changes))}
	for i := range changes {
		t.pending = append(t.pending, i)
	}
	err := fmt.Errorf("no editor of permission rules was given to apply (apply.Options.Lists)")
	if a.lists != nil {
		t.lists = a.lists
		err = t.run()
	}
	if err != nil {
		out := make([]result, len(changes))
		for i, c := range changes {
			e := t.errs[i]
			if e == nil {
				e = fmt.Errorf("%s: %w", c.Address, &FileError{File: t.list.File, Err: err})
			}
			a.failed[c.Address] = e
			out[i] = result{c, e}
		}
		return out
	}
	t.record()
	return a.report(changes, t.errs)
}

// run makes the changes.
func (t *ruleTransaction) run() error {
	sys, file := t.a.sys, t.list.File
	first, err := sys.ReadVersion(file)
	if err != nil {
		return err
	}
	base := first
	backedUp := false
	for range attempts {
		next, err := t.edit(base)
		if err != nil {
			return err
		}
		if len(t.pending) == 0 || (base.Exists && bytes.Equal(next, base.Data)) || (!base.Exists && next == nil) {
			return nil
		}
		if !backedUp {
			if err := t.a.backupBytes(file, first.Data, first.Exists); err != nil {
				return err
			}
			backedUp = true
		}
		if !base.Exists {
			if err := sys.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				return err
			}
		}
		in, err := sys.Install(file, next, 0o644, base)
		if err != nil {
			return err
		}
		if in.Done {
			return nil
		}
		base = in.Now // Devin wrote the file meanwhile: edit its version
	}
	return errors.New("the file kept changing while chronicle wrote it; nothing was changed: try again")
}

// edit checks each pending change against base and returns base with the
// changes that still hold made; the others fail and leave pending.
func (t *ruleTransaction) edit(base fsys.Version) ([]byte, error) {
	var src []byte
	if base.Exists {
		src = base.Data
	}
	rules, err := t.lists.Strings(t.list.File, src, t.list.KeyPath)
	if err != nil {
		return nil, err
	}
	f := &toolfile.File{Path: t.list.File, Exists: base.Exists, Data: base.Data}
	if base.Exists {
		f.Info, _ = toolfile.StatSettled(t.a.sys, t.list.File)
	}
	var keep []int
	for _, i := range t.pending {
		c := t.changes[i]
		if err := checkBlock(c, observe.RuleIn(f, rules, c.Rule.Rule)); err != nil {
			t.errs[i] = err
			continue
		}
		keep = append(keep, i)
		if c.Rule.RecordOnly {
			continue
		}
		if src, err = t.lists.Edit(t.list.File, src, t.list.KeyPath, c.Rule.Rule, c.Action == plan.Delete); err != nil {
			return nil, err
		}
	}
	t.pending = keep
	return src, nil
}

// record writes the outcome of each change made into the state.
func (t *ruleTransaction) record() {
	for _, i := range t.pending {
		c := t.changes[i]
		r := c.Rule
		if c.Action == plan.Delete {
			t.a.st.ForgetRule(r.List.File, r.List.KeyPath, r.Rule)
			continue
		}
		t.a.st.SetRule(state.Rule{Address: c.Address, Tool: r.Tool, Scope: r.Scope, Project: r.Project,
			File: r.List.File, KeyPath: r.List.KeyPath, Rule: r.Rule, Hash: observe.RuleHash(r.Rule)})
	}
}

// ruleDependency returns why the write of entry change c must be skipped:
// a rule denying one of its tools failed, and the server must never be
// callable without it.
func (a *applier) ruleDependency(c plan.Change) error {
	if c.Action == plan.Delete {
		return nil
	}
	prefix := c.Address + ".deny["
	for addr := range a.failed {
		if strings.HasPrefix(addr, prefix) {
			return &skippedError{c.Address, addr}
		}
	}
	return nil
}
