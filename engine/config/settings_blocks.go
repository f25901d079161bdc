package config

import (
	"net"
	"net/url"
	"strconv"

	"github.com/hashicorp/hcl/v2"
)

var chronicleSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "projects"}}}

func (l *loader) decodeChronicle(ctx *hcl.EvalContext, b *hcl.Block) {
	if b == nil {
		return
	}
	d := l.decoder(ctx)
	defer l.finish(d)
	content, diags := b.Body.Content(chronicleSchema)
	d.diags = append(d.diags, diags...)
	if a := content.Attributes["projects"]; a != nil {
		if ps, ok := d.strList(a); ok {
			for _, p := range ps {
				if p == "" {
					d.errorf(a.Expr.Range(), "Empty path", "A project folder in projects is empty.")
					continue
				}
				l.cfg.Projects = append(l.cfg.Projects, ExpandPath(d.home, d.dir, p))
			}
		}
	}
}

var hubSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "listen"}, {Name: "token"}, {Name: "hostnames"},
		{Name: "tools"}, {Name: "search_threshold"}, {Name: "always"}, {Name: "max_sessions"}, {Name: "local_clients"},
	},
}

func (l *loader) decodeHub(ctx *hcl.EvalContext, b *hcl.Block) {
	if b == nil {
		return
	}
	d := l.decoder(ctx)
	defer l.finish(d)
	content, diags := b.Body.Content(hubSchema)
	d.diags = append(d.diags, diags...)
	a := content.Attributes
	h := &Hub{Listen: DefaultListen, DeclRange: b.DefRange}
	if a["listen"] != nil {
		if s, ok := d.str(a["listen"]); ok {
			if problem := checkListen(s); problem != "" {
				d.errorf(a["listen"].Expr.Range(), "Invalid listen address", "%s", problem)
			}
			h.Listen = s
		}
	}
	if a["token"] != nil {
		h.Token, _ = d.secretStr(a["token"])
		d.literalSecret(a["token"], h.Token)
	}
	h.Hostnames, _ = d.strList(a["hostnames"])
	if a["tools"] != nil {
		h.Tools, _ = d.oneOf(a["tools"], ExposeAll, ExposeSearch, ExposeAuto)
	}
	if a["search_threshold"] != nil {
		if n, ok := d.integer(a["search_threshold"]); ok {
			if n < 1 || n > 10_000_000 {
				d.errorf(a["search_threshold"].Expr.Range(), "Invalid search_threshold", "search_threshold is a number of tokens from 1 to 10000000, not %d (the default is %d).", n, DefaultSearchThreshold)
			}
			h.SearchThreshold = n
		}
	}
	h.Always, _ = d.globList(a["always"], "github__get_*")
	if a["max_sessions"] != nil {
		if n, ok := d.integer(a["max_sessions"]); ok {
			if n < 1 || n > 100_000 {
				d.errorf(a["max_sessions"].Expr.Range(), "Invalid max_sessions", "max_sessions is a number of client sessions from 1 to 100000, not %d (the default is %d).", n, DefaultMaxSessions)
			}
			h.MaxSessions = n
		}
	}
	if a["local_clients"] != nil {
		h.LocalClients, _ = d.oneOf(a["local_clients"], LocalClientsToken, LocalClientsOpen)
	}
	if !IsLoopbackListen(h.Listen) && h.Token.IsZero() {
		d.errorf(b.DefRange, "Hub token required", "The hub listens on %s, which is reachable from other machines, so it needs token = secret(\"env:CHRONICLE_HUB_TOKEN\") (or another secret). Without one it refuses to start.", h.Listen)
	}
	l.cfg.Hub = h
}

func checkListen(s string) string {
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return "\"" + s + "\" is not host:port, e.g. \"127.0.0.1:7311\"."
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return "The port of \"" + s + "\" is not a number from 0 to 65535."
	}
	_ = host
	return ""
}

// IsLoopbackListen reports whether a listen address only accepts connections
// from this machine: 127.0.0.0/8, ::1 or "localhost".
func IsLoopbackListen(listen string) bool {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// DialAddress turns a listen address into one a client on this machine can
// dial: a hub listening on every interface is reached on loopback.
func DialAddress(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return listen
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		if ip != nil && ip.To4() == nil {
			return net.JoinHostPort("::1", port)
		}
		return net.JoinHostPort("127.0.0.1", port)
	}
	return listen
}

var chronovaSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "api_key"}, {Name: "api_url"}},
}

func (l *loader) decodeChronova(ctx *hcl.EvalContext, b *hcl.Block) {
	if b == nil {
		return
	}
	d := l.decoder(ctx)
	defer l.finish(d)
	content, diags := b.Body.Content(chronovaSchema)
	d.diags = append(d.diags, diags...)
	a := content.Attributes
	c := &Chronova{DeclRange: b.DefRange}
	if a["api_key"] != nil {
		c.APIKey, _ = d.secretStr(a["api_key"])
		d.literalSecret(a["api_key"], c.APIKey)
	}
	if a["api_url"] != nil {
		if s, ok := d.str(a["api_url"]); ok {
			u, err := url.Parse(s)
			if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
				d.errorf(a["api_url"].Expr.Range(), "Invalid url", "%q is not an http:// or https:// URL.", s)
			}
			c.APIURL = s
		}
	}
	l.cfg.Chronova = c
}
