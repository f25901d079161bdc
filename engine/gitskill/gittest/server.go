package gittest

import (
	"crypto/subtle"
	"crypto/tls"
	"io"
	"log"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// A Server is an HTTPS git server over a folder of bare repositories,
// closed when the test ends.
type Server struct {
	// URL is the server's base address, https://127.0.0.1:PORT.
	URL string
	// CertFile is a PEM file with the certificate the server presents: the
	// value for SSL_CERT_FILE in a child process.
	CertFile string

	root string // GIT_PROJECT_ROOT
	env  gitEnv

	mu      sync.Mutex
	tokens  map[string]string        // repository name → the token it requires
	stalled map[string]chan struct{} // repository name → told of each stalled request
	closing chan struct{}            // closed when the test ends: stalled requests return
}

// NewServer starts a server with no repositories; add them with Repo.
func NewServer(t testing.TB) *Server {
	t.Helper()
	id := serverIdentity()
	if id.err != nil {
		t.Fatalf("gittest: making the server certificate: %v", id.err)
	}
	s := &Server{
		CertFile: id.file,
		root:     t.TempDir(),
		env:      newGitEnv(t),
		tokens:   map[string]string{},
		stalled:  map[string]chan struct{}{},
		closing:  make(chan struct{}),
	}
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Fatal("gittest needs the git binary: install git (apt-get install git)")
	}
	backend := &cgi.Handler{
		Path: gitPath,
		Args: []string{"http-backend"},
		Root: "/",
		Env: []string{
			"GIT_PROJECT_ROOT=" + s.root,
			"GIT_HTTP_EXPORT_ALL=1",
			"HOME=" + s.env.home,
			"GIT_CONFIG_GLOBAL=" + filepath.Join(s.env.home, ".gitconfig"),
			"GIT_CONFIG_NOSYSTEM=1",
		},
	}
	srv := httptest.NewUnstartedServer(s.guard(backend))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{id.cert}}
	// A client refusing the certificate is an expected outcome of some
	// tests, not news for the log.
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(s.closing) }) // runs first: Close waits for stalled requests
	s.URL = srv.URL
	return s
}

// RequireToken makes the repository name answer only requests whose Basic
// auth password is token (any user name), as a private repository on a
// forge does; other requests get 401.
func (s *Server) RequireToken(name, token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[name] = token
}

// Stall makes the repository name hold every pack transfer (the
// git-upload-pack POST of a clone or fetch) without answering, until its
// client gives up or the test ends, as a server gone quiet mid-clone would.
// The returned channel receives once per stalled request, so a test knows
// that a clone is in progress before it interrupts it.
func (s *Server) Stall(name string) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := make(chan struct{}, 16)
	s.stalled[name] = ch
	return ch
}

// guard refuses requests for a private repository without its token, and
// holds the pack transfers of a stalled one.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), ".git/")
		s.mu.Lock()
		want, private := s.tokens[name]
		stalled := s.stalled[name]
		s.mu.Unlock()
		if private {
			_, got, ok := r.BasicAuth()
			if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
				w.Header().Set("WWW-Authenticate", `Basic realm="gittest"`)
				http.Error(w, "gittest: this repository needs a token", http.StatusUnauthorized)
				return
			}
		}
		if stalled != nil && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/git-upload-pack") {
			select {
			case stalled <- struct{}{}:
			default:
			}
			select {
			case <-r.Context().Done():
			case <-s.closing:
			}
			return
		}
		next.ServeHTTP(w, r)
	})
}
