package hub

import "github.com/chronicle-dev/chronicle/hub/report"

// Status describes the hub for /api/status (hub/report).
func (h *Hub) Status() map[string]any {
	return report.Status(report.Inputs{
		Catalog: h.lister.Built(), Settings: h.settings(), Guard: h.Guard(), Live: h.pool.Status(),
		Scopes: h.scopes, Clients: h.clients.List(), Stateless: h.stateless.Counts(),
		Version: h.opts.Version, Started: h.started, Profile: h.opts.Profile, Root: h.opts.Root, MetaTokens: metaTokens,
	})
}
