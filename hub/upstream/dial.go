package upstream

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/hub/upstream/pipe"
	"github.com/chronicle-dev/chronicle/hub/upstream/poll"
	"github.com/chronicle-dev/chronicle/hub/upstream/proc"
	"github.com/chronicle-dev/chronicle/hub/upstream/resolve"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// sessionVersion is the revision stdio and HTTP+SSE upstreams are asked
// for: the hub has no stateless client for those transports. A Streamable
// HTTP upstream is spoken to in the newest revision both sides speak
// (modern.go).
const sessionVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION

// dial makes a new session: it resolves the Spec's secrets, starts the
// child or opens the remote transport, and initializes the client. ctx
// bounds the start; the session itself lives until it is closed.
func (u *Upstream) dial(ctx context.Context) (*session, error) {
	rs := &resolve.Resolution{Resolver: u.opts.Resolver, Masker: u.opts.Masker}
	rs.LiteralSecrets(u.spec.Definition)
	sessCtx, cancel := context.WithCancel(u.ctx)
	var (
		tr     transport.Interface
		modern *transport.StreamableHTTP // tr, when the upstream speaks 2026-07-28
		ep     endpoint
		ch     *proc.Child
		err    error
	)
	switch u.spec.Via() {
	case service.Stdio:
		ch, err = u.spawn(rs)
		if err == nil {
			tr = pipe.New(ch.Stdout, ch.Stdin, u.opts.Logger)
		}
	case service.HTTP:
		tr, modern, ep, err = u.streamable(ctx, sessCtx, rs)
	case service.SSE:
		tr, ep, err = u.remote(rs, false)
	default:
		err = fmt.Errorf("unknown transport %q (want stdio, http or sse)", u.spec.Transport)
	}
	s := newSession(cancel)
	if err != nil {
		cancel()
		u.noteWithheld(rs)
		return nil, u.opts.Masker.Err(err)
	}
	s.child = ch
	version := sessionVersion
	if modern != nil {
		version = modernVersion
	}
	s.client = client.NewClient(tr, client.WithProtocolVersion(version))
	err = u.initialize(ctx, sessCtx, s, s.client, version)
	if modern != nil && (err != nil || !mcp.IsModernProtocol(s.client.ProtocolVersion())) {
		// The upstream answered server/discover and then no longer did:
		// mcp-go's client fell back to initialize and says why that
		// failed. Ask again for the reason, such as a login it refused.
		if _, why := u.discover(ctx, modern); why != nil {
			err = fmt.Errorf("server/discover: %w", why)
		} else if err == nil {
			err = errors.New("server/discover: the upstream answered it only once")
		}
	}
	if err != nil {
		s.close()
		u.noteWithheld(rs)
		return nil, u.opts.Masker.Err(err)
	}
	if modern != nil {
		u.useModern(sessCtx, s, modern, ep)
		s.era.Open = func(ctx context.Context) (*client.Client, error) {
			tr, _, err := u.remote(rs, true)
			if err == nil {
				c := client.NewClient(tr, client.WithProtocolVersion(sessionVersion))
				if err = u.initialize(ctx, sessCtx, s, c, sessionVersion); err == nil {
					return c, nil
				}
				_ = c.Close()
			}
			u.opts.Logger.Debug(u.spec.Name+": no session-era connection; every request goes in the 2026-07-28 revision",
				"service", u.spec.Name, "error", u.opts.Masker.Text(err.Error()))
			return nil, err
		}
	}
	return s, nil
}

// spawn resolves the command line and environment and starts the child.
func (u *Upstream) spawn(rs *resolve.Resolution) (*proc.Child, error) {
	if u.spec.Command == "" {
		return nil, errors.New("no command to run")
	}
	args := make([]string, len(u.spec.Args))
	for i, a := range u.spec.Args {
		s, err := rs.Value(a)
		if err != nil {
			return nil, err
		}
		args[i] = s
	}
	env, err := rs.Values(u.spec.Env)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(u.spec.Command, args...)
	cmd.Dir = u.spec.Cwd
	cmd.Env, rs.Withheld = proc.Env(u.opts.Environ(), u.spec, env, proc.HostOS)
	ch, err := proc.Start(u.spec.Name, cmd, u.opts.Masker, u.opts.Logger)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", u.spec.Command, err)
	}
	return ch, nil
}

// An endpoint is a remote upstream's resolved URL and headers.
type endpoint struct {
	url     string
	headers map[string]string
}

// remote resolves the URL and headers and makes an http or sse transport,
// an http one with the session era's standalone GET stream when listen is
// set; it returns the endpoint too, for the stateless revision's listen
// stream.
func (u *Upstream) remote(rs *resolve.Resolution, listen bool) (transport.Interface, endpoint, error) {
	url, err := rs.URL(u.spec.URL)
	if err != nil {
		return nil, endpoint{}, err
	}
	if url == "" {
		return nil, endpoint{}, errors.New("no url to connect to")
	}
	headers, err := rs.Values(u.spec.Headers)
	if err != nil {
		return nil, endpoint{}, err
	}
	ep := endpoint{url: url, headers: headers}
	log := u.opts.Logger.With("service", u.spec.Name)
	oauthCfg, tokens, err := u.oauthConfig(rs, url)
	if err != nil {
		return nil, endpoint{}, err
	}
	if u.spec.Via() == service.SSE {
		opts := []transport.ClientOption{transport.WithHeaders(headers),
			transport.WithSSELogger(log),
			transport.WithEndpointTimeout(u.opts.StartTimeout)}
		if oauthCfg != nil {
			opts = append(opts, transport.WithOAuth(*oauthCfg), transport.WithHTTPClient(stepUpClient(tokens)))
		}
		tr, err := transport.NewSSE(url, opts...)
		if err == nil && tokens != nil {
			tokens.Bind(tr.GetOAuthHandler())
		}
		return tr, ep, err
	}
	opts := []transport.StreamableHTTPCOption{transport.WithHTTPHeaders(headers),
		transport.WithHTTPLogger(log),
		// SSE polling passes through to the client of a call (hub/upstream/poll).
		transport.WithHTTPBasicClient(&http.Client{Transport: poll.Transport{Base: http.DefaultTransport}})}
	if listen {
		// The standalone GET stream carries list_changed notifications in
		// the session era.
		//lint:ignore SA1019 deprecated only for the 2026-07-28 revision, which a session-era upstream does not speak
		opts = append(opts, transport.WithContinuousListening())
	}
	if oauthCfg != nil {
		// The login's tokens (engine/oauth): refreshed ahead of expiry under
		// the record's file lock, shared with the CLI and every other hub.
		opts = append(opts, transport.WithHTTPOAuth(*oauthCfg), transport.WithHTTPBasicClient(stepUpClient(tokens)))
	}
	tr, err := transport.NewStreamableHTTP(url, opts...)
	if err == nil && tokens != nil {
		tokens.Bind(tr.GetOAuthHandler())
	}
	return tr, ep, err
}

// initialize starts the client's transport on the session's lifetime and
// performs the handshake of version within ctx: initialize in the session
// era, server/discover in the 2026-07-28 revision.
func (u *Upstream) initialize(ctx, sessCtx context.Context, s *session, c *client.Client, version string) error {
	if err := c.Start(sessCtx); err != nil {
		return u.startError(ctx, s, "connect", err)
	}
	c.OnNotification(func(n mcp.JSONRPCNotification) { u.notified(s, n) })
	if bi, ok := c.GetTransport().(transport.BidirectionalInterface); ok {
		bi.SetRequestHandler(u.serverRequest)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = version
	req.Params.ClientInfo = u.opts.ClientInfo
	req.Params.Capabilities = u.clientCapabilities()
	if _, err := c.Initialize(ctx, req); err != nil {
		return u.startError(ctx, s, "initialize", err)
	}
	return nil
}

// startError explains a failed start: a start that ran out of time says so,
// and a child says how it ended and what it wrote.
func (u *Upstream) startError(ctx context.Context, s *session, step string, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		err = fmt.Errorf("%s: no answer within the %s start timeout", step, u.opts.StartTimeout)
	} else {
		err = fmt.Errorf("%s: %w", step, err)
	}
	if s.child == nil {
		return err
	}
	s.child.Settle(err)
	return fmt.Errorf("%w; the process %s", err, s.child.Describe())
}

// noteWithheld logs, for a child that failed to start, which variables of
// the hub's environment it did not get: a server that needs one of them is
// given it by inherit_env or its env.
func (u *Upstream) noteWithheld(rs *resolve.Resolution) {
	if len(rs.Withheld) == 0 {
		return
	}
	u.opts.Logger.Warn(u.spec.Name+": started with a minimal environment; withheld: "+strings.Join(rs.Withheld, ", ")+
		" (pass what it needs with inherit_env = [\"NAME\"] or its env)", "service", u.spec.Name)
}
