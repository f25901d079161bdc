package oauth

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/internal/oauthtest"
)

// TestStepUp: a call the server refuses with 403 insufficient_scope (the
// mail tool wants the email scope the login did not ask for) answers a
// ScopeError naming the command, marks the record login required with
// the scope kept, and a second call does not reach the server. The next
// login asks for the scope too; a 403 for scopes the login asked for
// already marks nothing.
func TestStepUp(t *testing.T) {
	ts := oauthtest.Start(t)
	st := newTestStore(t)
	login(t, st, ts)

	err := callMail(t, st, ts)
	var se *ScopeError
	if !errors.As(err, &se) || se.Asked || !errors.Is(err, ErrLoginRequired) || !strings.Contains(err.Error(), "run chronicle auth login corp") || !strings.Contains(err.Error(), `"openid offline_access email"`) {
		t.Fatalf("a call of mail with a narrow login: %v", err)
	}
	// The record is marked: its token is no longer handed out.
	if err := callMail(t, st, ts); !errors.Is(err, transport.ErrOAuthAuthorizationRequired) {
		t.Fatalf("a second call after the step-up: %v", err)
	}
	if n := ts.StepUps(); n != 1 {
		t.Fatalf("the server refused %d calls, want 1", n)
	}
	status, _ := st.Status("corp", ts.MCPURL)
	if status.Status != LoginRequired || !strings.Contains(status.Why, "insufficient_scope") {
		t.Fatalf("status after the step-up: %+v", status)
	}

	open, _ := oauthtest.Browser(t, ts, true)
	var asked string
	rec, err := (&Login{Store: st, Service: testService(ts), Open: func(u string) error {
		p, _ := url.Parse(u)
		asked = p.Query().Get("scope")
		return open(u)
	}}).Run(ctxFor(t))
	if err != nil || asked != "openid offline_access email" || len(rec.StepUp) != 0 || rec.LoginRequired != "" {
		t.Fatalf("the login after the step-up asked for %q: %+v %v", asked, rec, err)
	}
	if err := callMail(t, st, ts); err != nil {
		t.Fatalf("mail after the wider login: %v", err)
	}

	// A refusal for scopes the login holds: a new login would not help.
	tokens := st.TokensFor(*rec)
	err = tokens.stepUp(ctxFor(t), []string{"email"})
	if !errors.As(err, &se) || !se.Asked || errors.Is(err, ErrLoginRequired) || !strings.Contains(err.Error(), "was not granted") {
		t.Fatalf("a refusal for a scope asked for: %v", err)
	}
	if err := tokens.stepUp(ctxFor(t), nil); err == nil || !strings.Contains(err.Error(), "does not name") {
		t.Fatalf("a refusal naming no scope: %v", err)
	}
	if status, _ := st.Status("corp", ts.MCPURL); status.Status != LoggedIn {
		t.Fatalf("a refusal no login mends marked the record: %+v", status)
	}
}

// callMail calls the mail tool as the hub does: mcp-go's client with the
// store's tokens and the StepUp transport.
func callMail(t *testing.T, st *Store, ts *oauthtest.Servers) error {
	t.Helper()
	svc := testService(ts)
	rec, err := st.Find(svc.URL)
	if err != nil || rec == nil {
		t.Fatalf("no record: %v", err)
	}
	cfg, tokens := st.Config(svc, rec, nil)
	tr, err := transport.NewStreamableHTTP(svc.URL, transport.WithHTTPOAuth(cfg), transport.WithHTTPBasicClient(&http.Client{Transport: tokens.StepUp(nil)}))
	if err != nil {
		t.Fatal(err)
	}
	tokens.Bind(tr.GetOAuthHandler())
	c := client.NewClient(tr)
	defer c.Close()
	ctx := ctxFor(t)
	if err := c.Start(ctx); err != nil {
		return err
	}
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{}); err != nil {
		return err
	}
	_, err = c.CallTool(context.WithoutCancel(ctx), mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "mail"}})
	return err
}
