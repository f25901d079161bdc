package oauth

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// callbackPath is the loopback redirect's path.
const callbackPath = "/callback"

// callbackDrain bounds how long the listener waits, once the redirect
// arrived, for its page to reach the browser.
const callbackDrain = 2 * time.Second

// A callback is the query of the authorization server's redirect back to
// chronicle, from the loopback listener or pasted by the user.
type callback struct {
	query url.Values
}

// listen opens the loopback listener of a login on 127.0.0.1:port (0: a
// free port) and returns it with its redirect URI.
func listen(port int) (net.Listener, string, error) {
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return nil, "", fmt.Errorf("the login's callback listener on 127.0.0.1:%d: %w", port, err)
	}
	return ln, fmt.Sprintf("http://127.0.0.1:%d%s", ln.Addr().(*net.TCPAddr).Port, callbackPath), nil
}

// await serves the callback on ln, then calls open (which shows the
// authorization URL) and reads pasted URLs from paste (nil: none) until one
// redirect arrives, open fails or ctx ends.
func await(ctx context.Context, ln net.Listener, open func() error, paste io.Reader) (callback, error) {
	got := make(chan callback, 2)
	failed := make(chan error, 1)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != callbackPath {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "chronicle received the login. You can close this window.")
		// The page leaves before the login goes on: await's return
		// shuts the listener down.
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		select {
		case got <- callback{query: r.URL.Query()}:
		default:
		}
	})}
	go srv.Serve(ln)
	// Shutdown, not Close: the browser gets the page the handler wrote
	// (under load Close could drop the connection under it, and the
	// person saw an error although the login went on).
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), callbackDrain)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	go func() {
		if err := open(); err != nil {
			failed <- err
		}
	}()
	if paste != nil {
		go func() {
			sc := bufio.NewScanner(paste)
			for sc.Scan() {
				if cb, ok := parsePasted(sc.Text()); ok {
					select {
					case got <- cb:
					default:
					}
					return
				}
			}
		}()
	}
	select {
	case cb := <-got:
		return cb, nil
	case err := <-failed:
		return callback{}, err
	case <-ctx.Done():
		return callback{}, fmt.Errorf("waiting for the login's redirect: %w", ctx.Err())
	}
}

// parsePasted reads a redirected URL the user pasted: one that carries a
// code or an error.
func parsePasted(line string) (callback, bool) {
	u, err := url.Parse(strings.TrimSpace(line))
	if err != nil {
		return callback{}, false
	}
	q := u.Query()
	if q.Get("code") == "" && q.Get("error") == "" {
		return callback{}, false
	}
	return callback{query: q}, true
}

// check returns the authorization code of cb after the checks that make it
// this login's: no error, the state sent, and (RFC 9207) the issuer
// discovered, compared as a plain string (a trailing slash or a case
// difference is another issuer), present when the authorization server
// says it sends it (issRequired).
func (cb callback) check(state, issuer string, issRequired bool) (string, error) {
	q := cb.query
	if e := q.Get("error"); e != "" {
		if d := q.Get("error_description"); d != "" {
			e += ": " + d
		}
		return "", fmt.Errorf("the authorization server refused the login: %s", e)
	}
	if q.Get("state") != state {
		return "", errors.New("the redirect's state is not this login's: start the login again")
	}
	iss, sent := q["iss"]
	switch {
	case sent && (len(iss) != 1 || iss[0] != issuer):
		return "", fmt.Errorf("the redirect comes from issuer %q, not %q (RFC 9207): refusing the code", strings.Join(iss, ", "), issuer)
	case !sent && issRequired:
		return "", fmt.Errorf("the redirect does not name its issuer, which %s says it always does (RFC 9207): refusing the code", issuer)
	}
	code := q.Get("code")
	if code == "" {
		return "", errors.New("the redirect carries no authorization code")
	}
	return code, nil
}
