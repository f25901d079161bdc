package hub

import (
	"path/filepath"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/exposure"
)

// A scoped service: its name and the project folder it is offered in
// ("" for a global service).
type scoped = exposure.Scoped

// visible returns the services a session working under root may use (see
// exposure.Visible).
func visible(services []scoped, root string) map[string]bool {
	return exposure.Visible(services, root)
}

// rootFromURI turns a file:// root URI (MCP roots) into a path.
func rootFromURI(uri string) string {
	if strings.HasPrefix(uri, "file://") {
		return filepath.Clean(strings.TrimPrefix(uri, "file://"))
	}
	if filepath.IsAbs(uri) {
		return filepath.Clean(uri)
	}
	return ""
}
