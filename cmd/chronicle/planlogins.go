package main

import (
	"fmt"
	"io"
	"time"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/oauth"
	"github.com/chronicle-dev/chronicle/engine/plan"
)

// loginWarning is how far ahead plan warns of a login that ends with
// nothing to renew it.
const loginWarning = 24 * time.Hour

// loginNotes returns one line per OAuth service of cfg that needs a login
// or whose token ends within a day with nothing to renew it, read from
// ~/.chronicle/oauth/ alone: plan never contacts a server for them, and
// never fails for them (a record it cannot read is a line too).
func (a *app) loginNotes(cfg *config.Config, chronicleHome string) []plan.Diagnostic {
	store := oauth.NewStore(chronicleHome, fsys.OS{}, a.masker)
	now := time.Now()
	var out []plan.Diagnostic
	for _, svc := range a.oauthServicesOf(cfg) {
		note := plan.Diagnostic{Severity: plan.SeverityNote, Address: "service." + svc.Name}
		st, err := store.Status(svc.Name, svc.URL)
		switch {
		case err != nil:
			note.Summary = fmt.Sprintf("%s: its login cannot be read (%s): chronicle auth login %s", svc.Name, err, svc.Name)
		case st.Status == oauth.LoginRequired:
			note.Summary = fmt.Sprintf("%s needs a login (%s): chronicle auth login %s", svc.Name, st.Why, svc.Name)
		case st.ExpiresWithin(now, loginWarning):
			note.Summary = fmt.Sprintf("%s's token expires at %s, with no refresh token to renew it: chronicle auth login %s", svc.Name, st.Expires.Format(time.RFC3339), svc.Name)
		default:
			continue
		}
		out = append(out, note)
	}
	return out
}

// writeLoginNotes prints the notes one line each, after the plan.
func writeLoginNotes(w io.Writer, notes []plan.Diagnostic) {
	for _, n := range notes {
		fmt.Fprintf(w, "OAuth: %s\n", n.Summary)
	}
}
