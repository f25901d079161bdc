package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/chronicle-dev/chronicle/internal/oauthtest"
)

// TestConsoleLogInInBrowser clicks the console's Log in button in
// chromium against a real chronicle serve whose service corp wants OAuth
// (zitadel's provider in front of a server that checks the token): the
// page shows corp as login required, the click has the hub start the
// login and hands out the authorization URL; the person's sign-in (played
// by an HTTP client following that URL, as the new tab would) lands on the
// login's loopback listener, and the page, without a reload, shows corp
// logged in with its tools.
func TestConsoleLogInInBrowser(t *testing.T) {
	ts := oauthtest.Start(t)
	c := startHubWith(t, consoleConfig+fmt.Sprintf(`
service "corp" {
  url = %q
  oauth {
    client_id = %q
    scopes    = ["openid", "offline_access"]
  }
}
`, ts.MCPURL, oauthtest.ClientID))
	// The catalogue is listed once, as a client's first list does: corp
	// fails for want of a login.
	if code, body := c.api(t, "GET", "/api/mcp/tools", "", ""); code != 200 || strings.Contains(body, "corp__whoami") {
		t.Fatalf("/api/mcp/tools before the login: %d %.300s", code, body)
	}

	tb := openTab(t, newBrowser(t), c.url)
	corp := row("service-row", "corp")
	tb.do("open the console", chromedp.Navigate(c.url+"/#token="+consoleToken),
		chromedp.WaitVisible(row("service-row", "corp", "login required")))
	tb.do("click Log in", chromedp.Click(corp+`//*[@data-testid="service-login"]`),
		chromedp.WaitVisible(corp+`//*[@data-testid="login-link"]`))
	authURL := eval[string](tb, `document.querySelector('[data-testid="login-link"]').href`)
	if !strings.HasPrefix(authURL, ts.Issuer+"/") || !strings.Contains(authURL, "code_challenge_method=S256") {
		t.Fatalf("the page's login link: %s", authURL)
	}
	open, _ := oauthtest.Browser(t, ts, true)
	if err := open(authURL); err != nil {
		t.Fatalf("signing in: %v", err)
	}
	tb.do("the page shows corp logged in", chromedp.WaitVisible(row("service-row", "corp", "logged in")))
	tb.clean("the login")
	if _, body := c.api(t, "GET", "/api/mcp/tools", "", ""); !strings.Contains(body, "corp__whoami") {
		t.Fatalf("corp's tools after the console's login: %.300s", body)
	}
}
