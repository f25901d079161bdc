// Command capture installs public MCP servers from npm at pinned versions
// into a scratch directory, runs each over stdio with dummy arguments and
// environment, and records its tools/list (with its name, version and
// license) as a replay.Recording. It needs the npm registry, so it is run by
// hand through bench/catalogue/capture.sh, never by the tests, which read
// only the committed recordings.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/hub/search/replay"
)

// A server is one manifest entry: what to install and how to run it.
type server struct {
	Service string `json:"service"`
	Package string `json:"package"`
	Version string `json:"version"`
	// Bin names the package's executable when it has several.
	Bin string `json:"bin,omitempty"`
	// Args and Env are dummies; "{scratch}" in an argument is replaced by an
	// empty directory of the server's own.
	Args []string          `json:"args,omitempty"`
	Env  map[string]string `json:"env,omitempty"`
	// Scripts lets npm run the package's install scripts (off by default:
	// several download browsers).
	Scripts bool `json:"scripts,omitempty"`
	// License is recorded when the package names a license file it does
	// not ship ("SEE LICENSE IN LICENSE"): the license of its repository.
	License string `json:"license,omitempty"`
}

func main() {
	manifest := flag.String("manifest", "bench/catalogue/servers.json", "the servers to capture")
	out := flag.String("out", "hub/search/testdata/catalogue", "where recordings are written")
	work := flag.String("work", "", "scratch directory for the installs (required)")
	only := flag.String("only", "", "comma-separated services to capture (default all)")
	flag.Parse()
	if *work == "" {
		fmt.Fprintln(os.Stderr, "capture: -work is required")
		os.Exit(2)
	}
	var servers []server
	b, err := os.ReadFile(*manifest)
	if err == nil {
		err = json.Unmarshal(b, &servers)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "capture: %s: %v\n", *manifest, err)
		os.Exit(1)
	}
	want := map[string]bool{}
	for _, s := range strings.Split(*only, ",") {
		if s != "" {
			want[s] = true
		}
	}
	failed := 0
	for _, s := range servers {
		if len(want) > 0 && !want[s.Service] {
			continue
		}
		start := time.Now()
		rec, err := capture(s, filepath.Join(*work, s.Service))
		if err == nil {
			err = rec.Save(filepath.Join(*out, s.Service+".json"))
		}
		if err != nil {
			failed++
			fmt.Fprintf(os.Stderr, "%s %s@%s: %v\n", s.Service, s.Package, s.Version, err)
			continue
		}
		fmt.Printf("%-14s %-45s %-10s %-12s %3d tools (%s)\n", s.Service, s.Package, s.Version, rec.License, len(rec.Tools), time.Since(start).Round(time.Second))
	}
	if failed > 0 {
		os.Exit(1)
	}
}

// capture installs s into dir, runs it and records what it lists.
func capture(s server, dir string) (*replay.Recording, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	install := []string{"install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", "--no-save", s.Package + "@" + s.Version}
	if !s.Scripts {
		install = append(install, "--ignore-scripts")
	}
	cmd := exec.Command("npm", install...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("npm install: %w", err)
	}
	pkgDir := filepath.Join(dir, "node_modules", s.Package)
	bin, license, err := inspect(pkgDir, s.Bin)
	if err != nil {
		return nil, err
	}
	if s.License != "" && (strings.HasPrefix(license, "SEE LICENSE") || license == "none stated") {
		license = s.License + " (" + license + ")"
	}
	scratch := filepath.Join(dir, "scratch")
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		return nil, err
	}
	args := []string{bin}
	for _, a := range s.Args {
		args = append(args, strings.ReplaceAll(a, "{scratch}", scratch))
	}
	var env []string
	for k, v := range s.Env {
		env = append(env, k+"="+v)
	}
	sort.Strings(env)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	tr := transport.NewStdio("node", env, args...)
	if err := tr.Start(ctx); err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	var stderr strings.Builder
	drained := make(chan struct{})
	go func() { io.Copy(&stderr, tr.Stderr()); close(drained) }()
	c := client.NewClient(tr, client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION))
	defer func() { c.Close(); <-drained }()

	var req mcp.InitializeRequest
	req.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "chronicle-catalogue-capture", Version: "1"}
	init, err := c.Initialize(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("initialize: %w\n%s", err, tail(stderr.String()))
	}
	tools, err := listTools(ctx, tr)
	if err != nil {
		return nil, fmt.Errorf("tools/list: %w\n%s", err, tail(stderr.String()))
	}
	if len(tools) == 0 {
		return nil, errors.New("listed no tools")
	}
	return &replay.Recording{
		Service: s.Service, Package: s.Package, Version: s.Version, License: license,
		ServerInfo: init.ServerInfo, Args: s.Args, Env: s.Env, Tools: tools,
	}, nil
}

// listTools asks for every page of tools/list and keeps each tool as the
// raw JSON the server sent.
func listTools(ctx context.Context, tr transport.Interface) ([]json.RawMessage, error) {
	var tools []json.RawMessage
	cursor := ""
	for page := 1; ; page++ {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		resp, err := tr.SendRequest(ctx, transport.JSONRPCRequest{
			JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(fmt.Sprintf("capture-%d", page)),
			Method: string(mcp.MethodToolsList), Params: params,
		})
		if err != nil {
			return nil, err
		}
		if resp.Error != nil {
			return nil, resp.Error.AsError()
		}
		var res struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor string            `json:"nextCursor"`
		}
		if err := json.Unmarshal(resp.Result, &res); err != nil {
			return nil, err
		}
		tools = append(tools, res.Tools...)
		if res.NextCursor == "" || page > 100 {
			return tools, nil
		}
		cursor = res.NextCursor
	}
}

// inspect reads the installed package's executable and license.
func inspect(pkgDir, wantBin string) (bin, license string, err error) {
	var pkg struct {
		Bin     json.RawMessage `json:"bin"`
		License json.RawMessage `json:"license"`
	}
	b, err := os.ReadFile(filepath.Join(pkgDir, "package.json"))
	if err == nil {
		err = json.Unmarshal(b, &pkg)
	}
	if err != nil {
		return "", "", err
	}
	var one string
	var many map[string]string
	switch {
	case json.Unmarshal(pkg.Bin, &one) == nil:
	case json.Unmarshal(pkg.Bin, &many) == nil:
		if wantBin != "" {
			one = many[wantBin]
		} else if len(many) == 1 {
			for _, v := range many {
				one = v
			}
		}
	}
	if one == "" {
		return "", "", fmt.Errorf("%s: no single executable in %s (set bin)", pkgDir, pkg.Bin)
	}
	var lic struct{ Type string }
	if json.Unmarshal(pkg.License, &license) != nil && json.Unmarshal(pkg.License, &lic) == nil {
		license = lic.Type
	}
	if license == "" || strings.HasPrefix(license, "SEE LICENSE") {
		license = licenseFromFile(pkgDir, license)
	}
	return filepath.Join(pkgDir, one), license, nil
}

// licenseFromFile names the license of a package whose package.json points
// at its LICENSE file, from that file's opening.
func licenseFromFile(pkgDir, stated string) string {
	for _, name := range []string{"LICENSE", "LICENSE.md", "LICENSE.txt", "license"} {
		b, err := os.ReadFile(filepath.Join(pkgDir, name))
		if err != nil {
			continue
		}
		text := string(b)
		switch {
		case strings.Contains(text, "Apache License") && strings.Contains(text, "MIT License"):
			return "Apache-2.0 OR MIT (" + name + ")"
		case strings.Contains(text, "Apache License"):
			return "Apache-2.0 (" + name + ")"
		case strings.Contains(text, "MIT License") || strings.Contains(text, "Permission is hereby granted, free of charge"):
			return "MIT (" + name + ")"
		}
		return "unrecognised (" + name + ")"
	}
	if stated == "" {
		return "none stated"
	}
	return stated
}

// tail keeps the end of a server's stderr for an error message.
func tail(s string) string {
	if len(s) > 2000 {
		s = "…" + s[len(s)-2000:]
	}
	return s
}
