package plan

import (
	"errors"
	"io/fs"
	"net/url"
	"path/filepath"
	"runtime"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/gitstatus"
	"github.com/chronicle-dev/chronicle/engine/hubtoken"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// hubHTTP is the definition of an HTTP hub entry: the hub's URL for the
// endpoint at path (/mcp, /mcp/profile/NAME or /mcp/service/NAME: see
// hubPath) scoped by ?root= to the link's project, and the token the hub asks of it as a bearer header:
// hub { token } when set (kept a reference: the tool's own syntax reads it
// from the environment), else the hub's own token file unless
// local_clients = "open" (a reference too, which apply inlines: decision
// 0145).
func (b *builder) hubHTTP(l *config.Link, path string) service.Definition {
	listen := config.DefaultListen
	var token secret.Value
	open := false
	if h := b.cfg.Hub; h != nil {
		listen, token, open = h.Listen, h.Token, h.LocalClients == config.LocalClientsOpen
	}
	u := url.URL{Scheme: "http", Host: config.DialAddress(listen), Path: path}
	if l.Project != "" {
		u.RawQuery = url.Values{"root": {l.Project}}.Encode()
	}
	d := service.Definition{Transport: service.HTTP, URL: secret.Literal(u.String())}
	switch {
	case !token.IsZero():
		d.Headers = map[string]secret.Value{hubtoken.HeaderName: secret.Concat(secret.Literal("Bearer "), token)}
	case !open:
		d.Headers = map[string]secret.Value{hubtoken.HeaderName: hubtoken.Header(b.hubTokenFile())}
	}
	return d
}

// hubPath is the path of the hub's endpoint for a link's entry: the
// service's own endpoint for a per-service entry (service != ""), the
// profile's for a link serving one, else /mcp.
func hubPath(l *config.Link, service string) string {
	switch {
	case service != "":
		return "/mcp/service/" + service
	case l.Profile != "":
		return "/mcp/profile/" + l.Profile
	}
	return "/mcp"
}

// hubTokenFile is the hub's own token file.
func (b *builder) hubTokenFile() string {
	if b.in.HubTokenFile != "" {
		return b.in.HubTokenFile
	}
	return hubtoken.Path(filepath.Join(b.in.Env.Home, ".chronicle"))
}

// hubTokenOf returns the hub's token file when e refers to it (else ""),
// and e as the plan renders it: the token masked, so that the diff never
// shows it and the hash the state records does not change with it.
func (b *builder) hubTokenOf(e provider.Entry) (string, provider.Entry) {
	path := b.hubTokenFile()
	if !hubtoken.Refers(e.Definition, path) {
		return "", e
	}
	e.Definition = hubtoken.Inline(e.Definition, path, hubtoken.Masked)
	return path, e
}

// staleHubToken says why an entry that refers to the hub's token file
// (path; "" for none) must be written again although its declaration did
// not change, or "": the token it carries is not the file's (written
// before the hub asked loopback clients for one, or the file was made
// again), or the file is not there yet (apply makes it). The plan reads
// the file, never writes it; the token read is masked from then on.
func (b *builder) staleHubToken(path string, actual provider.Entry) string {
	if path == "" {
		return ""
	}
	tok, err := hubtoken.Read(b.in.Reader, path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return b.hubTokenToMake(path)
	case err != nil:
		return "the hub token cannot be read (" + err.Error() + ")"
	}
	if b.masker != nil {
		b.masker.Add(tok)
	}
	if hubtoken.Carries(actual.Definition, tok) {
		return ""
	}
	return "the entry does not carry the hub's token (" + path + "): written before the hub asked loopback clients for it, or the token was made again"
}

// readableTokenFile warns when the tool's file an HTTP hub entry with the
// hub's token goes into can be read by other users: the token there would
// let them use the hub.
func (b *builder) readableTokenFile(addr string, l *config.Link, p provider.Provider, d service.Definition) {
	if runtime.GOOS == "windows" || !hubtoken.Refers(d, b.hubTokenFile()) {
		return
	}
	loc, ok := b.entryLocation(p, l.Project, l.Local)
	if !ok {
		return
	}
	info, err := b.in.Reader.Stat(loc.File)
	if err != nil || info.Mode().Perm()&0o044 == 0 {
		return
	}
	b.diag("warning", addr, "The hub token goes into a file other users can read",
		"%s (mode %#o) will carry the hub's token, which lets whoever reads it call every service through the hub: chmod go-r %s.", loc.File, uint32(info.Mode().Perm()), loc.File)
}

// hubTokenToMake says, when path (an entry's hub token file, or "") is
// not there yet, that apply makes it; else "".
func (b *builder) hubTokenToMake(path string) string {
	if path == "" {
		return ""
	}
	if _, err := b.in.Reader.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return "the hub token " + path + " is made at apply and written into the entry"
	}
	return ""
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
