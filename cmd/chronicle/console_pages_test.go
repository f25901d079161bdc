package main

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/google/go-cmp/cmp"

	"github.com/chronicle-dev/chronicle/internal/testpeer"
)

// views are the console's sections: the control that shows each one, and
// an element that is there once its data has arrived.
var views = []struct{ name, nav, loaded string }{
	{"overview", "nav-overview", row("service-row", "everything")},
	{"services", "nav-services", row("service-card", "everything")},
	{"tools", "nav-tools", row("tool-row", "everything__echo")},
	{"log", "nav-log", `[data-testid="log-entry"]`},
	{"skills", "nav-skills", row("skill-row", "review")},
	{"review", "nav-review", `[data-testid="review-summary"]`},
}

// TestConsoleInBrowser drives the web console in Debian's chromium against
// a real chronicle serve with server-everything behind it.
func TestConsoleInBrowser(t *testing.T) {
	axe, err := os.ReadFile(testpeer.NPM(t, "axe-core/axe.min.js"))
	if err != nil {
		t.Fatal(err)
	}
	c := startConsoleHub(t)
	if !strings.Contains(c.banner, c.url+"/#token=") || strings.Contains(c.banner, consoleToken) {
		t.Errorf("serve's console line, not on a terminal, must carry the token masked: %q", c.banner)
	}
	browser := newBrowser(t)
	one := openTab(t, browser, c.url)
	one.do("open the console with its token", chromedp.Navigate(c.url+"/#token="+consoleToken),
		chromedp.WaitVisible(row("service-row", "everything")), chromedp.WaitVisible(row("service-row", "xss")))
	if got := eval[string](one, `location.hash + "|" + sessionStorage.getItem("chronicle-hub-token")`); got != "|"+consoleToken {
		t.Errorf("the token was not moved from the address into sessionStorage: %q", got)
	}
	// "Connect a client": the hub's address and the header, the token
	// hidden on the page (Copy copies it whole).
	if got := one.text(`[data-testid="connect-snippet"]`); !strings.Contains(got, `"url": "`+c.url+`/mcp"`) || !strings.Contains(got, `"Authorization": "Bearer ******"`) || strings.Contains(got, consoleToken) {
		t.Errorf("the connect-a-client snippet: %s", got)
	}

	t.Run("pages", func(t *testing.T) {
		one.t = t
		for _, v := range views {
			one.do("show "+v.name, show(v.name), chromedp.WaitVisible(v.loaded))
			one.screenshot(v.name)
			one.clean("page " + v.name)
			accessible(t, one, v.name, axe)
		}
	})

	t.Run("tools list the catalogue; markup from an upstream stays text", func(t *testing.T) {
		one.t = t
		one.do("tools", show("tools"), chromedp.WaitVisible(row("tool-row", "xss__evil")))
		var listed []struct{ Name string }
		_, body := c.api(t, "GET", "/api/mcp/tools", "", "")
		if err := json.Unmarshal([]byte(body), &listed); err != nil || len(listed) < 10 {
			t.Fatalf("/api/mcp/tools: %v %.200s", err, body)
		}
		if n := eval[int](one, `document.querySelectorAll('[data-testid="tool-row"]').length`); n != len(listed) {
			t.Errorf("%d tool rows for %d tools", n, len(listed))
		}
		if got := one.text(row("tool-row", "xss__evil")); !strings.Contains(got, xssDescription) {
			t.Errorf("the description is not shown as text: %q", got)
		}
		one.do("open the xss tool", chromedp.Click(row("tool-row", "xss__evil")), chromedp.WaitVisible(row("tool-call-form", "html")))
		one.do("call it", chromedp.Click(`[data-testid="tool-call"]`), chromedp.WaitVisible(row("tool-result", "<b onclick=alert(3)>bold</b>")))
		if got := one.text(`[data-testid="tool-call-form"]`); !strings.Contains(got, "<script>alert(2)</script>") {
			t.Errorf("the schema's description is not shown as text: %q", got)
		}
		if n := eval[int](one, `document.querySelectorAll("img, script:not([src]), b").length`); n != 0 {
			t.Errorf("markup from the upstream became %d elements", n)
		}
		one.clean("tools")
	})

	t.Run("tool search is the hub's search; defaults are filled in; a view opens without the old search", func(t *testing.T) {
		one.t = t
		const query = "run an operation that takes long"
		var ranked []struct{ Name string }
		_, body := c.api(t, "GET", "/api/mcp/tools?q="+url.QueryEscape(query), "", "")
		if err := json.Unmarshal([]byte(body), &ranked); err != nil || len(ranked) == 0 || ranked[0].Name != "everything__trigger-long-running-operation" {
			t.Fatalf("the hub's search for %q: %v %.300s", query, err, body)
		}
		first := `(//*[@data-testid="tool-row"])[1][contains(., "everything__trigger-long-running-operation")]`
		// Each key typed starts a search: wait for the whole query's answer
		// (as many rows as the hub's search), not a shorter query's.
		one.do("search", show("tools"), chromedp.SendKeys(`#tool-search`, query), chromedp.WaitVisible(first),
			chromedp.WaitVisible(`//body[count(//*[@data-testid="tool-row"]) = `+strconv.Itoa(len(ranked))+`]`))
		if got := eval[[]string](one, `[...document.querySelectorAll('[data-testid="tool-row"] .name')].map((n) => n.textContent)`); len(got) != len(ranked) {
			t.Errorf("the page lists %d tools for %q, the hub's search %d", len(got), query, len(ranked))
		}
		one.do("open it", chromedp.Click(first), chromedp.WaitVisible(row("tool-call-form", "steps")))
		if got := eval[string](one, `document.querySelector('[data-testid="tool-call-form"]').querySelector("input[type=number]").value`); got != "10" {
			t.Errorf("the first number field holds %q, the schema's default is 10", got)
		}
		one.do("another view and back", show("overview"), show("tools"), chromedp.WaitVisible(row("tool-row", "everything__echo")))
		if got := eval[string](one, `document.getElementById("tool-search").value`); got != "" {
			t.Errorf("the tools view opened with the old search %q", got)
		}
		// A narrow window: no word of a table is broken, no list overflows.
		one.do("narrow", chromedp.EmulateViewport(420, 900), show("overview"))
		if broken := eval[[]string](one, `(() => {
			const out = [];
			const walk = document.createTreeWalker(document.getElementById("view-overview"), NodeFilter.SHOW_TEXT);
			for (let n = walk.nextNode(); n; n = walk.nextNode()) {
				const text = n.textContent.trim();
				if (!n.parentElement.closest("table.grid") || !text || /\s/.test(text) || text.length > 12) continue;
				const r = document.createRange(); r.selectNodeContents(n);
				if (new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1) out.push(text);
			}
			return out;
		})()`); len(broken) > 0 {
			t.Errorf("words broken across lines in a narrow window: %q", broken)
		}
		one.do("tools, narrow", show("tools"))
		if over := eval[bool](one, `(() => { const l = document.getElementById("tools-list"); return l.scrollWidth > l.clientWidth + 1; })()`); over {
			t.Errorf("the tools list overflows its box in a narrow window")
		}
		one.do("wide again", chromedp.EmulateViewport(1280, 900))
		one.clean("search")
	})

	t.Run("a call through the form shows its result and reaches a second tab's log live", func(t *testing.T) {
		one.t = t
		second, cancel := chromedp.NewContext(browser)
		defer cancel()
		two := openTab(t, second, c.url)
		two.do("open a second tab on the log", chromedp.Navigate(c.url+"/#token="+consoleToken),
			chromedp.WaitVisible(row("service-row", "everything")),
			show("log"), chromedp.WaitVisible(`[data-testid="log-entry"]`))
		eval[bool](two, `window.sameDocument = true`)

		one.do("open echo", show("tools"),
			chromedp.Click(row("tool-row", "everything__echo")), chromedp.WaitVisible(row("tool-call-form", "message")))
		accessible(t, one, "the call form", axe)
		one.do("fill the form", chromedp.SendKeys(`//*[@data-testid="tool-call-form"]//label[contains(., "message")]/following-sibling::input`, "hello from the console"))
		if got := eval[string](one, `document.querySelector('[data-testid="tool-args"]').value`); !strings.Contains(got, `"message": "hello from the console"`) {
			t.Errorf("the form did not fill the arguments: %q", got)
		}
		one.do("call echo", chromedp.Click(`[data-testid="tool-call"]`), chromedp.WaitVisible(row("tool-result", "Echo: hello from the console")))

		// The raw JSON is what is sent.
		one.do("raw arguments", chromedp.SetValue(`[data-testid="tool-args"]`, `{"message": "raw JSON works"}`),
			chromedp.Click(`[data-testid="tool-call"]`), chromedp.WaitVisible(row("tool-result", "Echo: raw JSON works")))

		two.do("the call appears in the second tab", chromedp.WaitVisible(row("log-entry", "tools/call everything__echo", "hello from the console")),
			chromedp.WaitVisible(row("log-entry", "Echo: hello from the console")), chromedp.WaitVisible(row("log-entry", "raw JSON works")))
		if !eval[bool](two, `window.sameDocument === true`) {
			t.Error("the second tab reloaded")
		}
		two.screenshot("log-live")
		one.clean("call")
		two.clean("second tab")
	})

	t.Run("a 60 MB result shows in the log, cut down", func(t *testing.T) {
		one.t = t
		text := callOverMCP(t, c.url, "xss__big")
		if len(text) < 60<<20 || !strings.HasPrefix(text, bigResultStart) {
			t.Fatalf("the client got %d bytes: %.100s", len(text), text)
		}
		entry := row("log-entry", "first line: token ghp_…******", "bytes left out", "last line of the big answer")
		one.do("the log shows the result", show("log"), chromedp.WaitVisible(entry))
		if got := one.text(entry); len(got) > 64<<10 || strings.Contains(got, "ghp_Q8zV") {
			t.Errorf("the entry shows %d characters, or the token: %.200s", len(got), got)
		}
		one.screenshot("log-big-result")
		one.clean("big result")
	})

	t.Run("a skill is tagged, rated and restored from a snapshot", func(t *testing.T) {
		one.t = t
		central := filepath.Join(c.home, ".chronicle", "skills", "review", "SKILL.md")
		one.do("skills", show("skills"), chromedp.WaitVisible(row("skill-row", "review", "claude")))
		one.do("tag and rate", chromedp.SetValue(`[data-testid="skill-tags"]`, "go, code-review"),
			chromedp.SetValue(`[data-testid="skill-rating"]`, "4"), chromedp.Click(`[data-testid="skill-save"]`),
			chromedp.WaitVisible(`//*[@data-testid="skill-row"][@data-rating="4"][contains(., "code-review")][contains(., "Saved.")]`))
		var listed []struct {
			Name   string
			Tags   []string
			Rating int
		}
		if err := json.Unmarshal([]byte(c.run(t, "skills", "list", "--json")), &listed); err != nil || len(listed) != 1 ||
			!cmp.Equal(listed[0].Tags, []string{"code-review", "go"}) || listed[0].Rating != 4 {
			t.Fatalf("skills list --json after the console tagged: %v %+v", err, listed)
		}

		mustWrite(t, central, "---\nname: review\ndescription: Broken by an edit.\n---\n")
		one.do("restore snapshot 1", chromedp.Click(`[data-testid="skill-snapshots"]`),
			chromedp.Click(`[data-testid="snapshot-restore"][data-id="1"]`), chromedp.WaitVisible(`[data-testid="snapshot-confirm"]`))
		if got, _ := os.ReadFile(central); !strings.Contains(string(got), "Broken by an edit") {
			t.Fatal("the restore did not wait for the confirmation")
		}
		accessible(t, one, "the restore's confirmation", axe)
		one.do("confirm", chromedp.Click(`[data-testid="snapshot-confirm"]`),
			chromedp.WaitVisible(row("skill-row", "Restored from snapshot 1")), chromedp.WaitVisible(`[data-testid="snapshot-row"][data-id="2"]`))
		// The edited content was kept first: by the restore (kind restore),
		// or already by serve's skill watcher (fs_change), which the
		// restore's snapshot then matches.
		var snaps []struct{ Kind, Note string }
		if err := json.Unmarshal([]byte(c.run(t, "skills", "snapshots", "review", "--json")), &snaps); err != nil || len(snaps) < 2 ||
			(snaps[1].Kind != "restore" && snaps[1].Kind != "fs_change") {
			t.Errorf("snapshots after the restore: %v %+v", err, snaps)
		}
		if got, _ := os.ReadFile(central); string(got) != reviewSkill {
			t.Errorf("the central copy after the restore: %q", got)
		}
		if got, _ := os.ReadFile(filepath.Join(c.home, ".claude", "skills", "review", "SKILL.md")); string(got) != reviewSkill {
			t.Errorf("claude's link does not show the restored skill: %q", got)
		}
		one.screenshot("skills-restored")
		one.clean("skills")
	})

	t.Run("the API answers as the command line", func(t *testing.T) {
		_, apiSkills := c.api(t, "GET", "/api/skills", "", "")
		sameJSON(t, "GET /api/skills and skills list --json", apiSkills, c.run(t, "skills", "list", "--json"))
		_, apiSnaps := c.api(t, "GET", "/api/skills/review/snapshots", "", "")
		sameJSON(t, "snapshots", apiSnaps, c.run(t, "skills", "snapshots", "review", "--json"))
		_, apiScan := c.api(t, "GET", "/api/mcp/scan", "", "")
		sameJSON(t, "GET /api/mcp/scan and scan --json", apiScan, c.run(t, "scan", "--json"))
	})

	t.Run("mutations need JSON and a local origin", func(t *testing.T) {
		one.t = t
		meta := filepath.Join(c.home, ".chronicle", "skills-meta.json")
		before, _ := os.ReadFile(meta)
		for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"} {
			if code, _ := c.api(t, "PUT", "/api/skills/review/meta", ct, `{"tags":[],"rating":1}`); code != 415 {
				t.Errorf("PUT meta as %s: %d, want 415", ct, code)
			}
			if code, _ := c.api(t, "POST", "/api/mcp/call", ct, `{"name":"everything__echo","arguments":{"message":"x"}}`); code != 415 {
				t.Errorf("POST call as %s: %d, want 415", ct, code)
			}
		}
		if code, _ := c.api(t, "PUT", "/api/skills/review/meta", "application/json", `{"tags":[],"rating":1}`, "Origin", "https://evil.example"); code != 403 {
			t.Errorf("PUT meta from another site: %d, want 403", code)
		}
		if after, _ := os.ReadFile(meta); string(after) != string(before) {
			t.Error("a refused request changed the metadata")
		}
		// The page itself cannot send a form either; this is the last check
		// of the tab, since the 415 shows in its log as a failed load.
		one.clean("before the page's own refused request")
		status := eval[int](one, `fetch("/api/skills/review/meta", {method: "PUT", body: "{}",
			headers: {"Content-Type": "text/plain", "Authorization": "Bearer " + sessionStorage.getItem("chronicle-hub-token")}}).then(r => r.status)`)
		if status != 415 {
			t.Errorf("text/plain from the page: %d, want 415", status)
		}
	})
}

// show clicks a section's control in the navigation and waits until the
// section's data has arrived (it is no longer aria-busy).
func show(view string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		return chromedp.Void{}, chromedp.Do(ctx, chromedp.Click(`[data-testid="nav-`+view+`"]`),
			chromedp.WaitVisible(`#view-`+view+`[aria-busy="false"]`))
	}
}

// accessible runs axe-core's rules label, button-name and link-name on the
// page as it is (zero violations), then checks that Tab reaches every
// control.
func accessible(t *testing.T, tb *tab, what string, axe []byte) {
	t.Helper()
	violations := eval[[]string](tb, string(axe)+`;
		axe.run(document, {runOnly: {type: "rule", values: ["label", "button-name", "link-name"]}})
		  .then(r => r.violations.map(v => v.id + ": " + v.nodes.map(n => n.target.join(" ")).join(", ")))`)
	for _, v := range violations {
		t.Errorf("axe on %s: %s", what, v)
	}
	tabReachesEveryControl(t, tb, what)
}

// tabReachesEveryControl presses Tab through a view and checks that focus
// visits every visible control.
func tabReachesEveryControl(t *testing.T, tb *tab, view string) {
	t.Helper()
	n := eval[int](tb, `(window.controls = [...document.querySelectorAll("a[href], button, input, select, textarea, summary, [tabindex]")]
		.filter(e => !e.disabled && e.getClientRects().length > 0 && e.tabIndex >= 0)).length`)
	eval[bool](tb, `document.activeElement && document.activeElement.blur(), true`)
	reached := map[int]bool{}
	for i := 0; i < n+3 && len(reached) < n; i++ {
		tb.do("press Tab", chromedp.KeyEvent(kb.Tab))
		if at := eval[int](tb, `window.controls.indexOf(document.activeElement)`); at >= 0 {
			reached[at] = true
		}
	}
	if len(reached) != n {
		missed := eval[[]string](tb, `window.controls.filter((e, i) => !`+jsSet(reached)+`.has(i)).map(e => e.outerHTML.slice(0, 120))`)
		t.Errorf("on %s, Tab reached %d of %d controls; not: %v", view, len(reached), n, missed)
	}
}

// jsSet writes a set of numbers as a JavaScript Set.
func jsSet(m map[int]bool) string {
	var ks []string
	for k := range m {
		ks = append(ks, strconv.Itoa(k))
	}
	return "new Set([" + strings.Join(ks, ",") + "])"
}

// sameJSON fails when two JSON documents differ as values.
func sameJSON(t *testing.T, what, a, b string) {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal([]byte(a), &va); err != nil {
		t.Fatalf("%s: %v in %.200s", what, err, a)
	}
	if err := json.Unmarshal([]byte(b), &vb); err != nil {
		t.Fatalf("%s: %v in %.200s", what, err, b)
	}
	if d := cmp.Diff(va, vb); d != "" {
		t.Errorf("%s differ:\n%s", what, d)
	}
}
