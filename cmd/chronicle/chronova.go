package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/chronova"
	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/hubtoken"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/hub/access"
)

func (a *app) chronovaCommand() *cobra.Command {
	var (
		useHTTP bool
		port    int
		apiURL  string
	)
	cmd := &cobra.Command{
		Use:   "chronova",
		Short: "Run the Chronova bridge on its own",
		Long: `chronova serves the four read-only Chronova tools (get_developer_context,
get_productivity_summary, get_ai_insights, get_recent_activity) over stdio for one
client, or over Streamable HTTP at http://127.0.0.1:PORT/mcp with --http (plus
GET /health). The hub offers the same tools as its built-in "chronova" service.

The API key comes from the first of: the chronova { api_key } block of the
configuration, CHRONOVA_API_KEY, ~/.chronova.cfg, ~/.wakatime.cfg. The URL likewise
(--api-url, chronova { api_url }, CHRONOVA_API_URL, the files' api_url, then
https://chronova.dev/api/v1). Over stdio a missing key is an error; over HTTP a
warning, and each call says no key is configured.`,
		Example: `  chronicle chronova
  chronicle chronova --http --port 3001
  CHRONOVA_API_KEY=… chronicle chronova --http --api-url https://chronova.example/api/v1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts, err := a.chronovaOptions(apiURL)
			if err != nil {
				return err
			}
			ctx := cmd.Context() // ends with Ctrl-C or SIGTERM (app.run)
			if !useHTTP {
				err := chronova.ServeStdio(ctx, opts, a.stdin, a.data)
				if errors.Is(err, chronova.ErrNoKey) {
					return failf("%s", err)
				}
				return err
			}
			ln, err := chronova.Listen(net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
			if err != nil {
				return err
			}
			guard, err := a.chronovaGuard(ln.Addr().String())
			if err != nil {
				ln.Close()
				return err
			}
			opts.Protect = guard.ProtectMCP
			return chronova.ServeHTTP(ctx, opts, ln)
		},
	}
	cmd.Flags().BoolVar(&useHTTP, "http", false, "serve Streamable HTTP on 127.0.0.1 instead of stdio")
	cmd.Flags().IntVar(&port, "port", 3001, "the port for --http")
	cmd.Flags().StringVar(&apiURL, "api-url", "", "the Chronova API base URL (overrides every other source)")
	return cmd
}

// chronovaOptions gathers the bridge's key and URL sources: the chronova
// block of the configuration, when there is one, resolved in memory only.
func (a *app) chronovaOptions(apiURL string) (chronova.Options, error) {
	home, err := a.userHome()
	if err != nil {
		return chronova.Options{}, err
	}
	opts := chronova.Options{
		Sources: chronova.Sources{Home: home, Getenv: os.Getenv},
		Version: version,
		Stderr:  a.stderr,
	}
	if c, err := a.configChronova(); err != nil {
		return opts, err
	} else if c != nil {
		opts.APIURL = c.APIURL
		if !c.APIKey.IsZero() {
			key, err := a.resolver().Resolve(c.APIKey)
			if err != nil {
				return opts, failf("chronova { api_key }: %s", err)
			}
			opts.APIKey = key
		}
	}
	if apiURL != "" {
		opts.APIURL = apiURL
	}
	return opts, nil
}

// chronovaGuard is the rule of the hub's /mcp for chronova --http on
// listen: Host and Origin checked, and a client sends hub { token } when
// set, else the hub's own token (~/.chronicle/hub.token, made as serve
// makes it) unless hub { local_clients = "open" }.
func (a *app) chronovaGuard(listen string) (access.Guard, error) {
	g := access.Guard{Listen: listen}
	cfg, err := a.optionalConfig()
	if err != nil {
		return g, err
	}
	if cfg != nil && cfg.Hub != nil {
		g.OpenLocal = cfg.Hub.LocalClients == config.LocalClientsOpen
		if !cfg.Hub.Token.IsZero() {
			tok, err := a.resolver().Resolve(cfg.Hub.Token)
			if err != nil {
				return g, failf("hub { token }: %s", err)
			}
			a.masker.Add(tok)
			g.Token = tok
			fmt.Fprintf(a.stderr, "chronova: clients send Authorization: Bearer with hub { token }\n")
			return g, nil
		}
	}
	if g.OpenLocal {
		fmt.Fprintf(a.stderr, "chronova: warning: hub { local_clients = \"open\" }: any local process may use /mcp without a token\n")
		return g, nil
	}
	home, err := a.chronicleHome()
	if err != nil {
		return g, err
	}
	g.TokenFile = hubtoken.Path(home)
	if g.LocalToken, err = hubtoken.Load(fsys.OS{}, g.TokenFile); err != nil {
		return g, failf("hub token: %s", err)
	}
	a.masker.Add(g.LocalToken)
	fmt.Fprintf(a.stderr, "chronova: clients send Authorization: Bearer with the token in %s\n", g.TokenFile)
	return g, nil
}

// configChronova returns the chronova block of the configuration directory,
// or nil when there is no configuration or no such block.
func (a *app) configChronova() (*config.Chronova, error) {
	cfg, err := a.optionalConfig()
	if cfg == nil || err != nil {
		return nil, err
	}
	return cfg.Chronova, nil
}

// resolver reads secrets from the environment, then ~/.chronicle/env.
func (a *app) resolver() secret.Resolver {
	r := secret.Resolver{Env: os.LookupEnv}
	if h, err := a.chronicleHome(); err == nil {
		r.EnvFile = filepath.Join(h, "env")
	}
	if home, err := a.userHome(); err == nil {
		r.Home = home
	}
	return r
}
