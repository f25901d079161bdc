package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/chronicle-dev/chronicle/internal/testpeer"
)

// consoleToken is the hub token of the browser tests.
const consoleToken = "browser-test-hub-token-5d41402abc4b"

// A consoleHub is a real `chronicle serve` over a home where apply declared
// server-everything, an upstream whose descriptions are markup, and the
// skill review linked into claude.
type consoleHub struct {
	bin, home, cfg string
	url            string // http://127.0.0.1:PORT
	env            []string
	banner         string // what serve printed about the console
}

const consoleConfig = `
hub {
  token = secret("env:CHRONICLE_HUB_TOKEN")
}

service "everything" {
  command = %q
  args    = [%q, "stdio"]
}

service "xss" {
  command = %q
  env = {
    CHRONICLE_CONSOLE_TEST_UPSTREAM = "xss"
  }
}

skill "review" {
  source = "./skills/review"
}

link "claude" {
  tools  = ["claude"]
  skills = ["*"]
}
`

const reviewSkill = "---\nname: review\ndescription: Reviews code with care.\n---\nRead every line.\n"

func startConsoleHub(t *testing.T) *consoleHub {
	t.Helper()
	return startHubWith(t, consoleConfig)
}

// startHubWith applies config (consoleConfig's format: node, the
// server-everything script, this test binary) in a new home and serves it.
func startHubWith(t *testing.T, config string) *consoleHub {
	t.Helper()
	node := testpeer.Node(t)
	everything := testpeer.NPM(t, "@modelcontextprotocol/server-everything/dist/index.js")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	c := &consoleHub{bin: chronicleBinary(t), home: filepath.Join(root, "home"), cfg: filepath.Join(root, "cfg")}
	mustWrite(t, filepath.Join(c.cfg, "chronicle.hcl"), fmt.Sprintf(config, node, everything, self))
	mustWrite(t, filepath.Join(c.cfg, "skills", "review", "SKILL.md"), reviewSkill)
	if err := os.MkdirAll(c.home, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, kv := range os.Environ() {
		switch strings.SplitN(kv, "=", 2)[0] {
		case "HOME", "XDG_CONFIG_HOME", "CODEX_HOME", "CHRONICLE_HOME", xssUpstreamEnv:
			continue
		}
		c.env = append(c.env, kv)
	}
	c.env = append(c.env, "HOME="+c.home, "XDG_CONFIG_HOME="+filepath.Join(c.home, ".config"), "NO_COLOR=1", "CHRONICLE_HUB_TOKEN="+consoleToken)
	c.run(t, "apply", "--auto-approve")

	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	serve := exec.Command(c.bin, "serve", "--listen", "127.0.0.1:"+port)
	serve.Dir, serve.Env = c.cfg, c.env
	stderr, err := serve.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	t.Cleanup(func() {
		_ = serve.Process.Signal(os.Interrupt)
		<-exited
	})
	// serve prints the console's address once it listens: wait for that
	// line, then keep reading so the hub never blocks on a full pipe.
	ready := make(chan string, 1)
	go func() {
		defer close(exited)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "console at") {
				ready <- sc.Text()
			}
		}
		_ = serve.Wait()
	}()
	select {
	case c.banner = <-ready:
	case <-exited:
		t.Fatal("chronicle serve exited before it served")
	}
	c.url = "http://127.0.0.1:" + port
	return c
}

// run runs chronicle in the configuration folder and returns its stdout.
func (c *consoleHub) run(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(c.bin, args...)
	cmd.Dir, cmd.Env = c.cfg, c.env
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("chronicle %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr)
	}
	return string(out)
}

// api sends a request to the hub with the token and returns the status and
// body.
func (c *consoleHub) api(t *testing.T, method, path, contentType, body string, hdr ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, c.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+consoleToken)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if v := resp.Header.Get("Access-Control-Allow-Origin"); v != "" {
		t.Errorf("%s %s answered Access-Control-Allow-Origin: %s", method, path, v)
	}
	return resp.StatusCode, string(b)
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// newBrowser starts Debian's chromium, headless, with a fresh profile and
// none of its own network traffic (the machine's network is closed).
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	chromium := testpeer.Chromium(t)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromium),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatal(err)
	}
	return ctx
}

// A tab is one browser tab on the console, with what it saw go wrong:
// console errors, exceptions, error log entries (a CSP violation, a failed
// load), a request to anything but the hub, a dialog.
type tab struct {
	t   *testing.T
	ctx context.Context
	hub string // host:port

	mu       sync.Mutex
	problems []string
	requests []string
}

// openTab opens a tab (the first one of the browser's context, or a new
// one) and watches it.
func openTab(t *testing.T, ctx context.Context, hubURL string) *tab {
	t.Helper()
	u, _ := url.Parse(hubURL)
	tb := &tab{t: t, ctx: ctx, hub: u.Host}
	if err := chromedp.Listen(ctx, tb.event); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, log.Enable, struct{}{}); err != nil {
		t.Fatal(err)
	}
	return tb
}

func (tb *tab) event(ev any) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	switch e := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError {
			var args []string
			for _, a := range e.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			tb.problems = append(tb.problems, "console.error: "+strings.Join(args, " "))
		}
	case *runtime.EventExceptionThrown:
		d := e.ExceptionDetails
		msg := d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
		tb.problems = append(tb.problems, "exception: "+msg)
	case *log.EventEntryAdded:
		if e.Entry.Level == log.EntryLevelError {
			tb.problems = append(tb.problems, "log: "+e.Entry.Text+" "+e.Entry.URL)
		}
	case *network.EventRequestWillBeSent:
		tb.requests = append(tb.requests, e.Request.URL)
		if u, err := url.Parse(e.Request.URL); err != nil || u.Host != tb.hub || (u.Scheme != "http" && u.Scheme != "https") {
			tb.problems = append(tb.problems, "request to something else than the hub: "+e.Request.URL)
		}
	case *page.EventJavascriptDialogOpening:
		tb.problems = append(tb.problems, "a dialog opened: "+e.Message)
	}
}

// clean fails the test if the tab saw anything go wrong since the last
// check.
func (tb *tab) clean(when string) {
	tb.t.Helper()
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, p := range tb.problems {
		tb.t.Errorf("%s: %s", when, p)
	}
	tb.problems = nil
}

// do runs browser actions, failing the test with what was being done.
func (tb *tab) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		tb.screenshot("failed")
		tb.t.Fatalf("%s: %v (a screenshot of the page is in %s)", what, err, tb.t.ArtifactDir())
	}
}

// eval evaluates a JavaScript expression in the page (awaiting a promise).
func eval[T any](tb *tab, expr string) T {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 60*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("evaluating %.80s: %v", expr, err)
	}
	return v
}

// text returns the visible text of the first node a selector matches.
func (tb *tab) text(sel string) string {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 60*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Text(sel))
	if err != nil {
		tb.t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

// screenshot saves the whole page as a test artifact (go test -artifacts
// keeps it; otherwise it is under the test's temporary folder).
func (tb *tab) screenshot(name string) string {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 60*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		tb.t.Fatalf("screenshot %s: %v", name, err)
	}
	path := filepath.Join(tb.t.ArtifactDir(), "console-"+name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		tb.t.Fatal(err)
	}
	return path
}

// row is an XPath to the element with a data-testid whose text contains
// every one of texts.
func row(testid string, texts ...string) string {
	x := `//*[@data-testid="` + testid + `"]`
	for _, s := range texts {
		x += `[contains(., ` + xpathString(s) + `)]`
	}
	return x
}

// xpathString quotes s for XPath 1.0, which has no escapes.
func xpathString(s string) string {
	if !strings.Contains(s, `"`) {
		return `"` + s + `"`
	}
	if !strings.Contains(s, `'`) {
		return `'` + s + `'`
	}
	parts := strings.Split(s, `"`)
	return `concat("` + strings.Join(parts, `", '"', "`) + `")`
}
