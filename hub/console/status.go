package console

// A ServiceStatus is one service as /api/status shows it.
type ServiceStatus struct {
	Name      string `json:"name"`
	Transport string `json:"transport"`
	Project   string `json:"project,omitempty"`
	State     string `json:"state"`
	Error     string `json:"error,omitempty"`
	Tools     int    `json:"tools"`
	PID       int    `json:"pid,omitempty"`
	Restarts  int    `json:"restarts,omitempty"`
	// Login is, for a service with an oauth block, "login required" (it
	// cannot be reached without `chronicle auth login NAME` or the
	// console's Log in) or "logged in"; empty for other services.
	Login string `json:"login,omitempty"`
	// Hidden lists tools the hub does not offer although no policy hides
	// them, each with why.
	Hidden []string `json:"hidden,omitempty"`

	// CatalogTokens is what the service's tools cost listed in full;
	// ListedTokens what they add to the list where the service is
	// offered (less in search mode).
	CatalogTokens int `json:"catalogue_tokens"`
	ListedTokens  int `json:"listed_tokens"`
}

// An EndpointStatus is what one endpoint offers and lists, and the token
// cost of each, as /api/status shows it.
type EndpointStatus struct {
	Endpoint string `json:"endpoint"` // /mcp or /mcp/profile/NAME
	Profile  string `json:"profile,omitempty"`
	Root     string `json:"root,omitempty"`
	// Mode is how it lists tools now: "all" or "search" (an "auto"
	// endpoint shows what it decided).
	Mode       string `json:"mode"`
	Configured string `json:"configured"` // all, search or auto
	// Tools and CatalogueTokens are every tool it offers, in full;
	// Listed and ListedTokens what its tools/list holds.
	Tools         int `json:"tools"`
	CatalogTokens int `json:"catalogue_tokens"`
	Listed        int `json:"listed"`
	ListedTokens  int `json:"listed_tokens"`
}
