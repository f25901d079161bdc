// Package state owns what chronicle last wrote on this machine: the State
// held in memory while a command runs, and the versioned state file
// (~/.chronicle/state.json) it is loaded from and saved to.
//
// As in Terraform, the two are separate types. State is the model the engine
// works with; the statefile types in statefile.go are the format on disk,
// with an explicit version and a reader per version that upgrades an older
// file to the current model. A file from a newer chronicle is refused rather
// than half understood.
//
// Every save is atomic (a crash leaves the old file or the new one), bumps
// the serial, keeps the file it replaces as state.json.backup and writes
// mode 0600. A save that replaces the file this state wrote last keeps the
// bytes it holds instead of reading the file again. Secrets are kept as references (secret.Value), never their content,
// so `chronicle serve` can run from the state alone without the state ever
// holding a token.
//
// Apply journals each change before making it (Journal), and records the
// result while clearing the intent in one save (Done, then Save). After a
// crash, a link or entry that matches a journalled intent (Intended) is
// chronicle's own.
package state
