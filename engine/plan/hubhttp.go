package plan

import (
	"net/url"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/gitstatus"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// hubHTTP is the definition of an HTTP hub entry: the hub's URL for the
// link's endpoint (/mcp, or /mcp/profile/NAME) scoped by ?root= to the
// link's project, and the hub token, when one is set, as a bearer header
// (kept a reference: the tool's own syntax reads it from the environment).
func (b *builder) hubHTTP(l *config.Link) service.Definition {
	listen := config.DefaultListen
	var token secret.Value
	if h := b.cfg.Hub; h != nil {
		listen, token = h.Listen, h.Token
	}
	u := url.URL{Scheme: "http", Host: config.DialAddress(listen), Path: "/mcp"}
	if l.Profile != "" {
		u.Path = "/mcp/profile/" + l.Profile
	}
	if l.Project != "" {
		u.RawQuery = url.Values{"root": {l.Project}}.Encode()
	}
	d := service.Definition{Transport: service.HTTP, URL: secret.Literal(u.String())}
	if !token.IsZero() {
		d.Headers = map[string]secret.Value{"Authorization": secret.Concat(secret.Literal("Bearer "), token)}
	}
	return d
}

// httpRefused says why an HTTP hub entry may not go into the tool's file
// for this link, or "": a project file that git tracks, or would take with
// `git add`, would carry a personal path and a daemon's URL into commits.
func (b *builder) httpRefused(l *config.Link, p provider.Provider) string {
	if l.Project == "" {
		return ""
	}
	loc, ok := b.entryLocation(p, l.Project, l.Local)
	if !ok {
		return "" // entry reports that the tool has no project file
	}
	st, err := gitstatus.Of(loc.File)
	if err != nil {
		return "transport = \"http\" needs a file git ignores, and git's view of " + loc.File + " cannot be read (" + err.Error() + ")."
	}
	switch st {
	case gitstatus.Tracked:
		return loc.File + " is tracked by git: an HTTP entry would commit this machine's hub URL and project path. Untrack it (git rm --cached) and ignore it to get the HTTP entry; meanwhile the stdio entry is written."
	case gitstatus.Untracked:
		return loc.File + " is not ignored by git: an HTTP entry would be committed with the next git add. Add it to .gitignore to get the HTTP entry; meanwhile the stdio entry is written."
	}
	return ""
}
