package gitskill_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/gitskill"
	"github.com/chronicle-dev/chronicle/engine/gitskill/gittest"
)

// TestFetchTrustsSSLCertFile proves the product's trust path end to end:
// the test binary runs again as a child whose only hint about the server's
// certificate is SSL_CERT_FILE in its environment from the start. With the
// server's certificate there, the fetch works; with an empty file it fails
// on verification, so nothing skips it.
func TestFetchTrustsSSLCertFile(t *testing.T) {
	srv := gittest.NewServer(t)
	repo := srv.Repo(t, "child")
	writeSkill(repo, "pdf")
	sha := repo.Commit("child")
	repo.Push()
	empty := filepath.Join(t.TempDir(), "empty.pem")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}

	out, err := runChild(t, repo.URL(), srv.CertFile)
	if err != nil || !strings.Contains(out, "fetched "+sha) {
		t.Fatalf("child trusting %s: %v\n%s", srv.CertFile, err, out)
	}
	out, err = runChild(t, repo.URL(), empty)
	if err == nil || !strings.Contains(out, "certificate") {
		t.Fatalf("child trusting nothing: err = %v, want a certificate failure\n%s", err, out)
	}
}

func runChild(t *testing.T, url, certFile string) (string, error) {
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestChildFetch$", "-test.v")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SSL_CERT_FILE=") && !strings.HasPrefix(kv, "SSL_CERT_DIR=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, childEnv+"="+url, "SSL_CERT_FILE="+certFile)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestChildFetch is the child's side of TestFetchTrustsSSLCertFile.
func TestChildFetch(t *testing.T) {
	url := os.Getenv(childEnv)
	if url == "" {
		t.Skip("runs only as the child of TestFetchTrustsSSLCertFile")
	}
	f, err := gitskill.Fetch(context.Background(), gitskill.FetchOptions{URL: url, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Cleanup()
	fmt.Println("fetched", f.SHA)
}
