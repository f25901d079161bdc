package replay

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/chronicle-dev/chronicle/hub/upstream/rpc"
	"github.com/mark3labs/mcp-go/mcp"
)

// A Recording is one server's tools/list as captured, with where the server
// came from so that the record can be checked and refreshed.
type Recording struct {
	// Service is the name the recording is served under (the <service> of
	// <service>__<tool>): the file's base name.
	Service string `json:"service"`
	// Package and Version are the npm package that was installed and run.
	Package string `json:"package"`
	Version string `json:"version"`
	// License is the package's SPDX license expression, as its
	// package.json or LICENSE file states it.
	License string `json:"license"`
	// ServerInfo is what the server said of itself in initialize.
	ServerInfo mcp.Implementation `json:"serverInfo"`
	// Args and Env are the dummy arguments and environment it ran with;
	// none is a real credential.
	Args []string          `json:"args,omitempty"`
	Env  map[string]string `json:"env,omitempty"`
	// Tools are the tools exactly as listed, one JSON object each.
	Tools []json.RawMessage `json:"tools"`
}

// Load reads the recording at path.
func Load(path string) (*Recording, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Recording
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if r.Service == "" {
		return nil, fmt.Errorf("%s: no service name", path)
	}
	return &r, nil
}

// LoadDir reads every *.json recording in dir, by service name.
func LoadDir(dir string) ([]*Recording, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var out []*Recording
	for _, p := range paths {
		r, err := Load(p)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Service < out[j].Service })
	return out, nil
}

// Save writes r to path as indented JSON.
func (r *Recording) Save(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// Decoded returns the recorded tools as mcp-go values, schemas in
// RawInputSchema and RawOutputSchema exactly as recorded (an absent input
// schema becomes {"type":"object"}, which MCP requires), as the hub decodes
// a listed tool (rpc.Tool).
func (r *Recording) Decoded() ([]mcp.Tool, error) {
	out := make([]mcp.Tool, 0, len(r.Tools))
	for i, raw := range r.Tools {
		var w rpc.Tool
		if err := json.Unmarshal(raw, &w); err != nil {
			return nil, fmt.Errorf("%s: tool %d: %w", r.Service, i, err)
		}
		out = append(out, w.MCP())
	}
	return out, nil
}
