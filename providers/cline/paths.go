package cline

import (
	"path/filepath"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

// settingsFile is where Cline keeps its MCP servers: $CLINE_MCP_SETTINGS_PATH,
// else $CLINE_DATA_DIR/settings, else $CLINE_DIR/data/settings, else
// ~/.cline/data/settings (Cline's resolveMcpSettingsPath).
func settingsFile(env provider.Env) string {
	if p := variable(env, "CLINE_MCP_SETTINGS_PATH"); p != "" {
		return p
	}
	if d := variable(env, "CLINE_DATA_DIR"); d != "" {
		return filepath.Join(d, "settings", fileName)
	}
	dir := variable(env, "CLINE_DIR")
	if dir == "" {
		dir = filepath.Join(env.Home, ".cline")
	}
	return filepath.Join(dir, "data", "settings", fileName)
}

const fileName = "cline_mcp_settings.json"

// variable returns an environment variable as an absolute path ("~" is the
// home), "" when it is unset or blank, as Cline ignores a blank one.
func variable(env provider.Env, name string) string {
	if env.Getenv == nil {
		return ""
	}
	v, _ := env.Getenv(name)
	v = strings.TrimSpace(v)
	switch {
	case v == "":
		return ""
	case v == "~" || strings.HasPrefix(v, "~/"):
		v = filepath.Join(env.Home, v[1:])
	}
	if abs, err := filepath.Abs(v); err == nil {
		return abs
	}
	return v
}
