package main

import (
	"fmt"
	"net"
	"os"

	"github.com/mattn/go-isatty"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/hub/console"
	"github.com/chronicle-dev/chronicle/providers"
)

// hubWorkspace gives the hub's console this machine's tools (the providers,
// built-in and from a configuration's tool blocks) and chronicle's folder,
// for the Skills Hub and the takeover review.
func (a *app) hubWorkspace(m *workspace) *console.Workspace {
	hubCmd, hubErr := a.hubCommand(m)
	return &console.Workspace{
		ChronicleHome: m.chronicleHome,
		KnownTools:    providers.Names(),
		Lists:         providers.Lists{}, OAuth: providers.OAuth,
		Tools: func(cfg *config.Config) (provider.Env, []provider.Provider) {
			env := m.env
			var tools []*config.Tool
			if cfg != nil {
				env.Projects = unique(append(append([]string{}, env.Projects...), cfg.Projects...))
				tools = cfg.Tools
			}
			return env, providers.All(tools)
		},
		LoadOptions: func() config.Options {
			in, err := a.machineInputs(m.home)
			if err != nil {
				// The review then plans with the defaults and says
				// what the configuration's errors are.
				return config.Options{}
			}
			return in.options(m.home, nil)
		},
		Successions: func(env provider.Env, tools []provider.Provider) []provider.Succession {
			return providers.Successions(fsys.OS{}, env, tools)
		},
		HubCommand: hubCmd,
		HubError:   hubErr,
	}
}

// printConsoleURL tells where the console is. The address carries the
// token after # (a fragment never reaches a server or a log): in full only
// on a terminal, where the person who started the hub reads it; masked
// anywhere else (a log file, a service manager's journal), with where the
// token is kept when the hub made it (own, in file).
func (a *app) printConsoleURL(addr net.Addr, token string, own bool, file string) {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	url := "http://" + net.JoinHostPort(host, port) + "/"
	w := a.stderr
	if mw, ok := w.(*mask.Writer); ok {
		w = mw.W
	}
	if f, ok := w.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		fmt.Fprintf(w, "chronicle hub: console at %s#token=%s\n", url, token)
		return
	}
	where := "the hub token"
	if own {
		where = "the token in " + file
	}
	fmt.Fprintf(a.stderr, "chronicle hub: console at %s#token=%s (%s; shown in full only on a terminal)\n", url, mask.Hide(token), where)
}
