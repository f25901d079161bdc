package machine

import "fmt"

// Where a machine's name came from, as the state records it.
const (
	NamedByFile     = "machine file" // machine { name } in the machine file
	NamedByHostname = "hostname"     // the short hostname: no machine file names one
)

// An Identity is a machine's name and where it came from.
type Identity struct {
	Name string
	From string
}

// Identity returns the facts' name and its source.
func (f Facts) Identity() Identity { return Identity{Name: f.Name, From: f.NameFrom} }

// RenamedFlag is the flag of plan, apply and sync that proceeds, on
// purpose, under a name other than the one the state recorded.
const RenamedFlag = "--machine-renamed"

// An IdentityError says that this machine's name is not the one that
// last applied the state, which a name from the machine file made sure
// of: the file went missing, or the home was copied from another machine.
// Planning on would apply another machine's settings (its tags, its
// variables, its `when` blocks), removing what that machine has and this
// one should keep.
type IdentityError struct {
	Recorded, Now Identity
	// File is the machine file, as the user knows its path.
	File string
}

func (e *IdentityError) Error() string {
	now := fmt.Sprintf("%q (its short hostname: %s names none)", e.Now.Name, e.File)
	if e.Now.From == NamedByFile {
		now = fmt.Sprintf("%q (named in %s)", e.Now.Name, e.File)
	}
	return fmt.Sprintf("this machine is %s, but the state was last applied by %q, a name from the machine file; "+
		"a missing machine file or a home copied from another machine would apply another machine's settings, so nothing was changed. "+
		"If this is %s: chronicle machine --set name=%s. If the machine was renamed on purpose: chronicle machine --set name=%s records it, or run again with %s",
		now, e.Recorded.Name, e.Recorded.Name, e.Recorded.Name, e.Now.Name, RenamedFlag)
}

// CheckIdentity compares the identity the state recorded (nil: none yet)
// with this run's. A different name is an *IdentityError when the recorded
// one came from the machine file, unless renamed (the user said so with
// RenamedFlag), and a note when it came from the hostname (hostnames
// change: a DHCP lease, a new laptop name). file is the machine file as
// the user knows its path.
func CheckIdentity(recorded *Identity, now Identity, file string, renamed bool) (note string, err error) {
	if recorded == nil || recorded.Name == now.Name {
		return "", nil
	}
	if recorded.From == NamedByFile && !renamed {
		return "", &IdentityError{Recorded: *recorded, Now: now, File: file}
	}
	if recorded.From == NamedByFile {
		return fmt.Sprintf("Note: this machine was %q and is %q now (%s): the next apply records the new name.", recorded.Name, now.Name, RenamedFlag), nil
	}
	return fmt.Sprintf("Note: this machine's name changed from %q to %q since the last apply (the short hostname; no machine file names it). To keep one name whatever the hostname: chronicle machine --set name=%s", recorded.Name, now.Name, now.Name), nil
}
