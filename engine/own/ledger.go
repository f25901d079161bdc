package own

// A Case is one place a plan decides: what is wanted there, what is there
// (the Subject), and what chronicle recorded of it.
type Case struct {
	// Address is the address that wants the place (or, for Release, the
	// record's).
	Address string
	Subject Subject
	// Want is the hash of the declaration as rendered now (Decide only).
	Want string
	// Record is the state's record of the place; nil when chronicle wrote
	// nothing there.
	Record *Record
	// Replace, Import and Intended say --replace or import names the
	// address, or the journal holds an intent for it from an apply that
	// did not finish.
	Replace, Import, Intended bool
	// Ignored says this machine leaves the address alone (machine.hcl's
	// ignore): nothing is written, removed or reported as a conflict.
	Ignored bool
	// AsIs says whether import takes over what is there when it is not the
	// declared version.
	AsIs AsIs
	// MovesAside says --replace moves what chronicle did not write into a
	// backup set and writes anew (links, copies, whole files) rather than
	// editing it in place (entries, blocks). What chronicle wrote and
	// someone changed is moved aside when it is Foreign (a folder where
	// chronicle's link was), else written over after a backup.
	MovesAside bool
	// After is what a removal leaves, added to its reason: "a snapshot is
	// kept".
	After    string
	Commands Commands
}

// AsIs is what import does with what is at a place when it is not the
// declared version.
type AsIs int

// What import takes over.
const (
	// NotAsIs: only the declared version is imported.
	NotAsIs AsIs = iota
	// KeepAsIs: what is there is recorded as chronicle's and stays until
	// the declaration changes (a rule's file).
	KeepAsIs
	// RewriteAsIs: what is there is recorded as chronicle's, and the next
	// apply writes the declared version (an entry holding the declared
	// secret in plain text gets the reference).
	RewriteAsIs
)

// A Decision is what a plan does at a place, and why.
type Decision struct {
	Action Action
	Reason string
	// Diff shows the place as it is against as declared, over the owned
	// projection (the Subject's), when a person needs it.
	Diff string
	// RecordOnly says apply writes nothing there: what is there is
	// recorded as chronicle's.
	RecordOnly bool
	// Rewrite says the record is to be taken so that the next plan writes
	// the declared version (RewriteAsIs).
	Rewrite bool
	// Wrap says the declared text is there without markers: apply puts
	// markers around it.
	Wrap bool
}

// Ignored is the reason a place this machine leaves alone gives.
const Ignored = "ignored on this machine (~/.chronicle/machine.hcl)"

// Decide is the one decision for a place the configuration wants.
func Decide(c Case) Decision {
	if c.Ignored {
		return Decision{Action: Ignore, Reason: Ignored}
	}
	seen := c.Subject.Seen()
	rec := c.Record
	mine := rec != nil
	what := c.Subject.What()
	switch {
	case seen.Bare && (c.Replace || c.Import):
		return Decision{Action: Update, Wrap: true, Reason: "takes over the text already there as " + what + " (markers put around it; the text stays as it is)"}
	case seen.Bare:
		return Decision{Action: Conflict, Reason: "the text of " + what + " is already there, without markers; " + c.Commands.ImportAddr(c.Address) + " takes it over (markers put around it) instead of writing it twice"}
	case seen.Absent && mine:
		return Decision{Action: Create, Reason: reasonRewrite}
	case seen.Absent:
		return Decision{Action: Create}
	case mine && !seen.Foreign && seen.Hash == rec.Hash:
		switch {
		case rec.Rendered != c.Want:
			d := Decision{Action: Update, Diff: c.Subject.Diff()}
			if d.Diff == "" {
				d.Reason = reasonRedeclared
			}
			return d
		case rec.Address != "" && rec.Address != c.Address:
			return Decision{Action: Update, RecordOnly: true, Reason: "recorded under " + c.Address + " (written for " + rec.Address + ")"}
		}
		return Decision{Action: NoOp}
	case seen.Declared && c.Intended:
		return Decision{Action: Update, RecordOnly: true, Reason: reasonInterrupted}
	case mine && seen.Declared:
		// A drift whose diff would be empty cannot exist: the place holds
		// what chronicle would write.
		return Decision{Action: Update, RecordOnly: true, Reason: reasonMatches}
	case mine:
		d := Decision{Diff: c.Subject.Diff()}
		switch {
		case c.Replace && seen.Foreign:
			d.Action, d.Reason = Replace, changed(seen, what)+"; --replace moves it into a kept backup set, then writes the declared version"
		case c.Replace:
			d.Action, d.Reason = Update, changed(seen, what)+"; --replace writes the declared version after a backup"
		default:
			d.Action, d.Reason = Conflict, "drift: "+changed(seen, what)+"; "+driftHint(c.Commands, c.Address)
		}
		return d
	case seen.Declared:
		if c.Replace || c.Import {
			return Decision{Action: Update, RecordOnly: true, Reason: reasonImported}
		}
		return Decision{Action: Conflict, Reason: what + " is already there, identical to the declared one, but chronicle did not write it; " + c.Commands.ImportAddr(c.Address) + " takes it over as it is"}
	}
	d := Decision{Diff: c.Subject.Diff()}
	switch {
	case c.Import && c.AsIs != NotAsIs:
		d.Action, d.RecordOnly, d.Rewrite, d.Reason = Update, true, c.AsIs == RewriteAsIs, reasonImportAsIs
		if d.Rewrite {
			d.Reason = "imported as it is: recorded as chronicle's; the next apply writes the declared version (a secret held in plain text becomes the reference)"
		}
	case c.Replace && (c.MovesAside || seen.Foreign):
		d.Action, d.Reason = Replace, foreign(seen, what)+"; --replace moves it into a kept backup set, then writes the declared version"
	case c.Replace:
		d.Action, d.Reason = Update, "--replace takes over "+what+", which chronicle did not write, after a backup"
	case c.MovesAside || seen.Foreign:
		d.Action, d.Reason = Conflict, foreign(seen, what)+"; chronicle never overwrites it ("+c.Commands.Replace(c.Address)+" moves it into a kept backup set first)"
	default:
		d.Action, d.Reason = Conflict, what+" is there, but chronicle did not write it; it is never overwritten ("+c.Commands.Replace(c.Address)+" takes it over after a backup)"
	}
	return d
}

// Release is the one decision for a place chronicle wrote and the
// configuration no longer wants: removed when it is as chronicle wrote it,
// forgotten when it is gone, else left alone as a conflict.
func Release(c Case) Decision {
	if c.Ignored {
		return Decision{Action: Ignore, Reason: Ignored}
	}
	seen := c.Subject.Seen()
	switch {
	case seen.Absent:
		return Decision{Action: Delete, Reason: reasonGone}
	case !seen.Foreign && seen.Hash == c.Record.Hash:
		r := reasonUndeclared
		if c.After != "" {
			r += "; " + c.After
		}
		return Decision{Action: Delete, Reason: r}
	}
	return Decision{Action: Conflict, Reason: "no longer declared, but " + changed(seen, c.Subject.What()) + "; not removed (" + c.Commands.StateRm(c.Address) + " lets go of it)"}
}

// changed says how what chronicle wrote at a place was changed.
func changed(seen Seen, what string) string {
	if seen.There != "" {
		return seen.There + " instead of what chronicle wrote"
	}
	return what + " was " + EditedSince
}

// foreign says what is at a place chronicle did not write.
func foreign(seen Seen, what string) string {
	if seen.There != "" {
		return seen.There
	}
	return what + " is there, but chronicle did not write it"
}
