package hub

import (
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
