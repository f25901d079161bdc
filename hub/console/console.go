package console

import (
	"embed"
	"io/fs"
	"mime"
	"net/http"
	"path"
)

// The console's files: plain HTML, CSS and JavaScript, embedded in the
// binary. No build step, no CDN: the page loads nothing from anywhere but
// the hub (its CSP says so to the browser too).
//
//go:embed index.html app.js style.css icon.svg
var consoleFiles embed.FS

// consolePolicy is the console's Content-Security-Policy: its own files
// only, no inline script or style, never inside a frame.
const consolePolicy = "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// serveConsoleFile serves one of the console's files: the page at / and
// its files under /console/. They hold no data (every datum comes from /api
// with the token), so they are served without the token: a browser cannot
// send one on a navigation.
func serveConsoleFile(w http.ResponseWriter, name string) {
	data, err := fs.ReadFile(consoleFiles, path.Clean("/" + name)[1:])
	if err != nil {
		http.NotFound(w, nil)
		return
	}
	ct := mime.TypeByExtension(path.Ext(name))
	if ct == "" {
		ct = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Security-Policy", consolePolicy)
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(data)
}

// Page is GET /: the console's page.
func (h *API) Page(w http.ResponseWriter, r *http.Request) { serveConsoleFile(w, "index.html") }

// File is GET /console/FILE: one of the page's files.
func (h *API) File(w http.ResponseWriter, r *http.Request) { serveConsoleFile(w, r.PathValue("file")) }
