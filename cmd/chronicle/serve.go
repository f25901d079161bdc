package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/catalog"
	"github.com/chronicle-dev/chronicle/engine/hubtoken"
	"github.com/chronicle-dev/chronicle/hub"
	"github.com/chronicle-dev/chronicle/hub/watch"
)

func (a *app) serveCommand() *cobra.Command {
	var (
		stdio   bool
		listen  string
		profile string
		service string
	)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the aggregating MCP hub",
		Long: `serve runs one MCP endpoint that re-exposes every service the last apply recorded
as <service>__<tool> (prompts likewise; resources keep their URIs), with policies
(disabled services and tools are hidden, a call to a disabled tool is refused)
and per-project scoping (a service with a project is offered only to clients
working under that folder: X-Chronicle-Root, the client's MCP roots, or for
--stdio the working directory). The Chronova bridge appears as the service
"chronova" when a chronova block was applied.

It needs nothing but ~/.chronicle/state.json, so it runs from any directory, and
reloads when apply rewrites the state. While it runs, a central skill edited in
place is snapshotted (fs_change, 500 ms after the last write; see skills snapshots). Over HTTP (Streamable HTTP at /mcp on
hub.listen, default 127.0.0.1:7311) it also serves GET /health, the web console
at / (overview, services, tools with a call form, the live log, skills with
snapshots, tags and ratings, the takeover review), and the API it reads
(docs/api.md): /api/status, /api/services, /api/tools, /api/log, POST /api/call,
/api/mcp/..., /api/skills/....
/mcp?root=DIR (URL-encoded) scopes a client to a project by its URL, on every
revision (2024-11-05 through 2026-07-28; /sse + /message for HTTP+SSE clients).
Each profile block is served at /mcp/profile/NAME (and ?root=), and over stdio
by --stdio --profile NAME. Each service is also served alone, under the names its
server gives (no <service>__ prefix) and with the same policies, at
/mcp/service/NAME (and ?root=), and over stdio by --stdio --service NAME. With hub { tools = "search" } (or "auto", above
search_threshold tokens) an endpoint lists three meta-tools — search_tools,
describe_tools, call_tool — instead of every tool. The HTTP hub keeps the
catalogue, with each tool's token cost, in ~/.chronicle/catalog.json for plan,
scan and chronicle tools.
Upstream stdio servers start on first need, with a minimal environment, and
stop with the hub.`,
		Example: `  chronicle serve
  chronicle serve --listen 127.0.0.1:7400
  chronicle serve --stdio          # what link { hub = true } writes into each tool
  chronicle serve --stdio --profile review   # link { hub = true, profile = "review" }
  chronicle serve --stdio --service github  # github alone, under its own tool names`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if profile != "" && !stdio {
				return failf("--profile applies to --stdio; over HTTP each profile is served at /mcp/profile/NAME")
			}
			if service != "" && !stdio {
				return failf("--service applies to --stdio; over HTTP each service is served at /mcp/service/NAME")
			}
			if service != "" && profile != "" {
				return failf("--service and --profile cannot be combined: a service endpoint serves one service as its server names it")
			}
			m, err := a.workspace(nil)
			if err != nil {
				return err
			}
			cache, tokenFile := "", ""
			if !stdio {
				cache = catalog.Path(m.chronicleHome)
				tokenFile = hubtoken.Path(m.chronicleHome)
			}
			wd, _ := os.Getwd()
			logger := slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
			h, err := hub.New(hub.Options{
				StatePath: m.statePath(), Home: m.home, EnvFile: filepath.Join(m.chronicleHome, "env"),
				Listen: listen, Root: wd, Version: version, Logger: logger, Workspace: a.hubWorkspace(m),
				Profile: profile, Service: service, CatalogPath: cache, TokenFile: tokenFile, OAuthHome: m.chronicleHome,
			})
			if err != nil {
				return failf("%s", err)
			}
			token := ""
			if !stdio {
				// Made before the state is watched: on a machine chronicle
				// does not manage yet it makes ~/.chronicle, where the first
				// apply will write the state.
				if token, err = h.EnsureToken(); err != nil {
					h.Close()
					return failf("%s", err)
				}
			}
			// The root context ends with Ctrl-C or SIGTERM (app.run); this
			// one also when serving ends (a stdio client closed stdin).
			ctx, cancel := context.WithCancel(cmd.Context())
			defer cancel()
			go func() {
				if err := h.WatchState(ctx); err != nil {
					logger.Warn("not watching the state for changes", "error", err)
				}
			}()
			// Every hub follows the logins: a `chronicle auth login` made
			// while it runs reaches its upstreams without a restart.
			go func() {
				if err := h.WatchLogins(ctx); err != nil {
					logger.Warn("not watching the logins for changes", "error", err)
				}
			}()
			// Of all the hubs running (one per tool with --stdio), the
			// one holding skillwatch.lock watches the skills.
			skills := &watch.Skills{
				StoreDir: m.store.Dir, SnapshotDir: filepath.Join(m.chronicleHome, "snapshots"),
				LockPath: filepath.Join(m.chronicleHome, "skillwatch.lock"), Log: logger,
			}
			watched := make(chan struct{})
			go func() {
				defer close(watched)
				if err := skills.Run(ctx); err != nil {
					logger.Warn("not watching the central skills", "error", err)
				}
			}()
			defer func() { cancel(); <-watched }() // release the watch lock before exiting
			if stdio {
				return h.ServeStdio(ctx, a.stdin, a.data)
			}
			g := h.Guard()
			if msg := g.StartError(); msg != "" {
				h.Close()
				return failf("%s", msg)
			}
			ln, err := net.Listen("tcp", g.Listen)
			if err != nil {
				h.Close()
				return failf("cannot listen on %s: %s", g.Listen, err)
			}
			fmt.Fprintf(a.stderr, "chronicle hub: serving MCP on http://%s/mcp (health: /health, management API: /api/status with the hub token)\n", ln.Addr())
			a.printConsoleURL(ln.Addr(), token, g.Token == "", tokenFile)
			return h.ServeHTTP(ctx, ln)
		},
	}
	cmd.Flags().BoolVar(&stdio, "stdio", false, "serve one client on stdin/stdout")
	cmd.Flags().StringVar(&listen, "listen", "", "listen on `ADDR` instead of hub.listen (default 127.0.0.1:7311)")
	cmd.Flags().StringVar(&profile, "profile", "", "with --stdio: serve the profile `NAME` (a profile block) instead of the whole hub")
	cmd.Flags().StringVar(&service, "service", "", "with --stdio: serve the service `NAME` alone, under the names its server gives")
	return cmd
}
