package own

// EditedSince is the phrase every reason uses for a change someone made to
// what chronicle wrote.
const EditedSince = "edited since chronicle wrote it"

// The reasons the ledger gives, each written once.
const (
	reasonRewrite     = "removed since chronicle wrote it; writing it again"
	reasonInterrupted = "written by an interrupted apply; recording it"
	reasonMatches     = EditedSince + " to hold the declared version; recording it"
	reasonImported    = "imported: what is there is the declared version; recorded as chronicle's"
	reasonImportAsIs  = "imported as it is: recorded as chronicle's, nothing rewritten (the next change to the declaration rewrites it)"
	reasonRedeclared  = "the declared version changed since chronicle wrote it; writing it again"
	reasonGone        = "already gone; forgetting it"
	reasonUndeclared  = "no longer declared"
)

// driftHint is what a drift's reason offers: keep the edit (everywhere, or
// on this machine only) or drop it.
func driftHint(cmds Commands, addr string) string {
	return "to keep the edit, change the configuration to match (the diff shows how), or keep it on this machine only: " +
		cmds.Ignore(addr) + "; to drop it: " + cmds.Replace(addr)
}
