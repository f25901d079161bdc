package hub

import (
	"path/filepath"
	"strings"
)

// A scoped service: its name and the project folder it is offered in
// ("" for a global service).
type scoped struct {
	name    string
	project string
}

// visible returns the services a session working under root may use:
// every global service, and the project services whose folder holds root —
// of those, only the ones with the deepest folder, so that a service for
// ~/work/api wins over one for ~/work inside the api checkout. With no root,
// only global services are offered.
func visible(services []scoped, root string) map[string]bool {
	out := map[string]bool{}
	deepest := -1
	for _, s := range services {
		if s.project == "" {
			out[s.name] = true
			continue
		}
		if root != "" && within(root, s.project) && len(s.project) > deepest {
			deepest = len(s.project)
		}
	}
	for _, s := range services {
		if s.project != "" && root != "" && within(root, s.project) && len(s.project) == deepest {
			out[s.name] = true
		}
	}
	return out
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	path, dir = filepath.Clean(path), filepath.Clean(dir)
	return path == dir || strings.HasPrefix(path, dir+string(filepath.Separator))
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
