package chronova

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// DefaultTimeout bounds one call to the Chronova API.
const DefaultTimeout = 30 * time.Second

// maxBody bounds how much of a response the client reads.
const maxBody = 32 << 20

var errTimedOut = errors.New("chronova: request timed out")

// A Client calls the Chronova API: GET requests relative to a base URL, with
// bearer auth, JSON accepted, and a timeout. Its errors are *APIError values
// whose text can go to a model as is.
type Client struct {
	// Timeout bounds each request; zero means DefaultTimeout.
	Timeout time.Duration
	// HTTP sends the requests; nil means a client of its own.
	HTTP *http.Client

	base *url.URL
	key  string
	now  func() time.Time
}

// NewClient returns a Client for the resolved credentials. The base URL is
// normalised to end in a slash, so that relative paths resolve under it: a
// base of "https://x/api/v1" reaches "https://x/api/v1/users/current". A
// client without a key is valid; its calls fail with a CodeNoKey error, so a
// server can start and tell the model what to configure.
func NewClient(creds Credentials) (*Client, error) {
	base, err := url.Parse(strings.TrimSpace(creds.URL))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("chronova api_url %q (from %s): want an http or https URL such as %s",
			redactURL(creds.URL), creds.URLSource, DefaultURL)
	}
	base.Fragment, base.RawFragment = "", ""
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
		if base.RawPath != "" {
			base.RawPath += "/"
		}
	}
	return &Client{base: base, key: creds.Key, now: time.Now}, nil
}

// BaseURL returns the normalised API base, with any user info redacted.
func (c *Client) BaseURL() string { return c.base.Redacted() }

// HasKey reports whether the client has an API key to send.
func (c *Client) HasKey() bool { return c.key != "" }

// Get calls GET path (relative to the base URL, e.g. "users/current") with
// the query parameters that are not empty, and returns the JSON body of a 2xx
// response. Failures are *APIError values.
func (c *Client) Get(ctx context.Context, path string, query map[string]string) (json.RawMessage, error) {
	u := c.resolve(path, query)
	shown := u.Redacted()
	if c.key == "" {
		return nil, &APIError{Code: CodeNoKey, URL: shown, message: noKeyMessage}
	}

	timeout := c.timeout()
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, errTimedOut)
	defer cancel()
	fail := func(err error) error {
		switch {
		case errors.Is(context.Cause(ctx), errTimedOut):
			return timeoutError(shown, timeout)
		case ctx.Err() != nil:
			return cancelledError(shown, err)
		default:
			return connectionError(shown, err)
		}
	}

	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, connectionError(shown, err)
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	req.Header.Set("Accept", "application/json")

	resp, err := c.httpClient().Do(req)
	if err != nil {
		return nil, fail(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, statusError(resp, shown, c.now())
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return nil, fail(err)
	}
	if len(body) > maxBody {
		return nil, badResponseError(shown, fmt.Sprintf("the body is larger than %d MiB", maxBody>>20), nil)
	}
	if !json.Valid(body) {
		return nil, badResponseError(shown, "the body is not JSON", nil)
	}
	return body, nil
}

// resolve builds the request URL under the base, leaving out empty parameters.
func (c *Client) resolve(path string, query map[string]string) *url.URL {
	u := c.base.ResolveReference(&url.URL{Path: strings.TrimPrefix(path, "/")})
	q := url.Values{}
	for k, v := range query {
		if v != "" {
			q.Set(k, v)
		}
	}
	u.RawQuery = q.Encode()
	return u
}

func (c *Client) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

func (c *Client) httpClient() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return http.DefaultClient
}

// redactURL hides any password in a URL meant for a message.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Redacted()
}
