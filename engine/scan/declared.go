package scan

import (
	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// Declarations find the declared service a tool's entry corresponds to:
// the one whose origin records this tool's entry name, or else the service
// of that name. They are indexed once from a configuration, so that a scan
// of thousands of entries against thousands of services looks each entry up
// in constant time instead of walking every service (and splitting its
// origin) per entry.
type Declarations struct {
	byOrigin map[originName]*service.Service
	byName   map[string]*service.Service
}

// originName is an origin's tool and the tool's original entry name.
type originName struct{ tool, name string }

// NewDeclarations indexes the services of cfg (none when cfg is nil). Where
// two services would answer one lookup, the first declared does, as in the
// configuration's own order.
func NewDeclarations(cfg *config.Config) Declarations {
	d := Declarations{byOrigin: map[originName]*service.Service{}, byName: map[string]*service.Service{}}
	if cfg == nil {
		return d
	}
	for _, s := range cfg.Services {
		tool, _, original := s.OriginParts()
		if k := (originName{tool, original}); d.byOrigin[k] == nil {
			d.byOrigin[k] = s
		}
		if d.byName[s.Name] == nil {
			d.byName[s.Name] = s
		}
	}
	return d
}

// Of returns the service a tool's entry of this name corresponds to, or nil.
func (d Declarations) Of(tool, name string) *service.Service {
	if s := d.byOrigin[originName{tool, name}]; s != nil {
		return s
	}
	return d.byName[name]
}
