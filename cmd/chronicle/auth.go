package main

import (
	"fmt"
	"os/exec"
	"runtime"
	"slices"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/oauth"
)

func (a *app) authCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "auth",
		Short: "Log in to remote services that want OAuth, and see or end those logins",
		Long: `auth manages the logins of services declared with an oauth block:

  service "linear" {
    url = "https://mcp.linear.app/mcp"
    oauth {}
  }

Tokens and registrations live in ~/.chronicle/oauth/, one 0600 file per
authorization server and resource, never in the state, a plan or a log.`,
	}
	cmd.AddCommand(a.authLoginCommand(), a.authStatusCommand(), a.authLogoutCommand())
	return cmd
}

// oauthServices returns the configuration's services that have an oauth
// block, in the package's terms (the client secret resolved when it
// resolves), those named when names are given (an error for a name that
// is not one of them), and the store. With no configuration there are none.
func (a *app) oauthServices(names ...string) ([]oauth.Resource, *oauth.Store, error) {
	ch, err := a.chronicleHome()
	if err != nil {
		return nil, nil, err
	}
	store := oauth.NewStore(ch, fsys.OS{}, a.masker)
	cfg, err := a.optionalConfig()
	if err != nil {
		return nil, store, err
	}
	var all []oauth.Resource
	if cfg != nil {
		all = a.oauthServicesOf(cfg)
	}
	svcs, err := pick(all, names)
	return svcs, store, err
}

// oauthServicesOf lists cfg's OAuth services. A url or client secret whose
// reference does not resolve leaves the service out of nothing: the url is
// then its text, which finds no record, and the secret empty.
func (a *app) oauthServicesOf(cfg *config.Config) []oauth.Resource {
	r := a.resolver()
	var out []oauth.Resource
	for _, s := range cfg.Services {
		if s.OAuth == nil {
			continue
		}
		u, err := r.Resolve(s.URL)
		if err != nil {
			u = s.URL.HCL()
		}
		svc := oauth.Resource{Name: s.Name, URL: u, OAuth: *s.OAuth}
		if !s.OAuth.ClientSecret.IsZero() {
			if v, err := r.Resolve(s.OAuth.ClientSecret); err == nil {
				a.masker.Add(v)
				svc.ClientSecret = v
			}
		}
		out = append(out, svc)
	}
	return out
}

// pick returns the services named (every one when names is empty), or an
// error naming one that has no oauth block.
func pick(all []oauth.Resource, names []string) ([]oauth.Resource, error) {
	if len(names) == 0 {
		return all, nil
	}
	var out []oauth.Resource
	for _, n := range names {
		i := slices.IndexFunc(all, func(s oauth.Resource) bool { return s.Name == n })
		if i < 0 {
			return nil, failf("no service %q with an oauth block in the configuration (chronicle auth status lists them)", n)
		}
		out = append(out, all[i])
	}
	return out, nil
}

// openBrowser opens url in the user's browser, without waiting for it.
func openBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("opening the browser: %w", err)
	}
	go cmd.Wait()
	return nil
}
