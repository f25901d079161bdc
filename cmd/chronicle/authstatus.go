package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/oauth"
)

func (a *app) authStatusCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show each OAuth service's login, without contacting any server",
		Long: `status reports, for every service with an oauth block, whether chronicle holds
a working login ("logged in") or needs one ("login required"), from
~/.chronicle/oauth/ alone: it never contacts a server, and it exits 0
whatever the states.`,
		Example: `  chronicle auth status
  chronicle auth status --json | jq '.[] | select(.status == "login required") | .service'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			svcs, store, err := a.oauthServices()
			if err != nil {
				return err
			}
			statuses := make([]oauth.Status, 0, len(svcs))
			for _, s := range svcs {
				st, err := store.Status(s.Name, s.URL)
				if err != nil {
					return err
				}
				statuses = append(statuses, st)
			}
			if asJSON {
				return writeJSON(a.stdout, statuses)
			}
			writeAuthStatus(a.stdout, statuses)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one object per service: service, issuer, registration, scopes, expires, status")
	return cmd
}

func writeAuthStatus(w io.Writer, statuses []oauth.Status) {
	if len(statuses) == 0 {
		fmt.Fprintln(w, "No service has an oauth block.")
		return
	}
	for _, st := range statuses {
		if st.Status == oauth.LoginRequired {
			fmt.Fprintf(w, "%s: login required (%s): chronicle auth login %s\n", st.Service, st.Why, st.Service)
			continue
		}
		var parts []string
		parts = append(parts, "issuer "+st.Issuer, st.Registration+" registration")
		if len(st.Scopes) > 0 {
			parts = append(parts, "scopes "+strings.Join(st.Scopes, " "))
		}
		if st.Expires != nil {
			word := "expires"
			if st.Refreshable {
				word = "refreshed after"
			}
			parts = append(parts, word+" "+st.Expires.Format(time.RFC3339))
		}
		fmt.Fprintf(w, "%s: logged in (%s)\n", st.Service, strings.Join(parts, ", "))
	}
}
