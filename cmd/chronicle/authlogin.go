package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/oauth"
)

func (a *app) authLoginCommand() *cobra.Command {
	var noBrowser bool
	cmd := &cobra.Command{
		Use:   "login [SERVICE...]",
		Short: "Log in to services that want OAuth (every one that needs it when none is named)",
		Long: `login logs chronicle in to each service named, or to every service with an oauth
block that needs a login when none is named: it discovers the server's
authorization server (RFC 9728, RFC 8414), registers chronicle where no
client_id is configured, and opens the browser at the authorization page
(PKCE S256, a state, the resource per RFC 8707). The browser comes back to a
listener on 127.0.0.1 (callback_port, else a free port); the issuer of the
answer is checked (RFC 9207).

With --no-browser the URL is printed instead. Over SSH, where the browser
cannot reach this machine's 127.0.0.1, paste the address the browser was
sent to (it starts with http://127.0.0.1) into the terminal.`,
		Example: `  chronicle auth login
  chronicle auth login linear --no-browser`,
		RunE: func(cmd *cobra.Command, args []string) error {
			svcs, store, err := a.oauthServices(args...)
			if err != nil {
				return err
			}
			if len(args) == 0 {
				svcs = needingLogin(store, svcs)
				if len(svcs) == 0 {
					fmt.Fprintln(a.stdout, "Every service with an oauth block is logged in.")
					return nil
				}
			}
			failed := 0
			for _, svc := range svcs {
				if err := a.login(store, svc, noBrowser); err != nil {
					fmt.Fprintf(a.stderr, "Error: %s: %s\n", svc.Name, err)
					failed++
				}
			}
			if failed > 0 {
				return exitWith(exitError)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&noBrowser, "no-browser", false, "print the URL instead of opening a browser, and accept the redirected URL pasted on standard input")
	return cmd
}

// needingLogin returns the services whose status is "login required".
func needingLogin(store *oauth.Store, svcs []oauth.Resource) []oauth.Resource {
	var out []oauth.Resource
	for _, s := range svcs {
		if st, err := store.Status(s.Name, s.URL); err != nil || st.Status == oauth.LoginRequired {
			out = append(out, s)
		}
	}
	return out
}

// login logs in to one service.
func (a *app) login(store *oauth.Store, svc oauth.Resource, noBrowser bool) error {
	l := &oauth.Login{Store: store, Service: svc}
	var paste io.Reader
	if noBrowser {
		paste = a.stdin
		l.Open = func(u string) error {
			fmt.Fprintf(a.stdout, "Open this address in a browser to log in to %s:\n\n", svc.Name)
			printURL(a, u)
			fmt.Fprintln(a.stdout, "Waiting for the browser; or paste here the address it was sent to (http://127.0.0.1…):")
			return nil
		}
	} else {
		open := a.openURL
		if open == nil {
			open = openBrowser
		}
		l.Open = func(u string) error {
			fmt.Fprintf(a.stdout, "Opening the browser to log in to %s. If it does not open, visit:\n\n", svc.Name)
			printURL(a, u)
			return open(u)
		}
	}
	l.Paste = paste
	rec, err := l.Run(a.ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "%s: logged in at %s (%s registration).\n", svc.Name, rec.Issuer, rec.Registration.Kind)
	return nil
}

// printURL prints the authorization URL whole: its state and code
// challenge look like credentials to the shape rules of standard output,
// but they are not secret (the verifier never leaves the process), and a
// cut URL cannot be opened. Only registered values are hidden in it.
func printURL(a *app, u string) {
	fmt.Fprintf(a.data, "  %s\n\n", u)
}
