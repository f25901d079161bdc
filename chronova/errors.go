package chronova

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The codes an APIError carries, matching the reference Chronova MCP server
// (plus TIMEOUT, which the reference meant to report as a connection error).
const (
	CodeUnauthorized    = "UNAUTHORIZED"
	CodeNotFound        = "NOT_FOUND"
	CodeRateLimited     = "RATE_LIMITED"
	CodeServerError     = "SERVER_ERROR"
	CodeAPIError        = "API_ERROR"
	CodeConnectionError = "CONNECTION_ERROR"
	CodeTimeout         = "TIMEOUT"
	CodeCancelled       = "CANCELLED"
	CodeBadResponse     = "BAD_RESPONSE"
	CodeNoKey           = "NO_KEY"
)

// noKeyMessage is what a tool returns when the bridge runs without a key.
const noKeyMessage = "No Chronova API key is configured. Set CHRONOVA_API_KEY, add an api_key line to ~/.chronova.cfg or ~/.wakatime.cfg, or set api_key in the chronova { } block of chronicle.hcl."

// An APIError is a failed call to the Chronova API. Its Error text is what a
// tool returns to the model, worded exactly as the reference server words it;
// it names the request URL where that helps and never contains the key.
type APIError struct {
	Code string
	// Status is the HTTP status, or 0 when no response arrived.
	Status int
	// RetryAfter is the wait in seconds a 429 asked for, or 0 when unknown.
	RetryAfter int
	// URL is the request URL, with any user info redacted.
	URL string
	// Err is the transport error behind a connection failure, for logs.
	Err error

	message string
}

// Error returns the user-facing text.
func (e *APIError) Error() string { return e.message }

// Unwrap returns the transport error behind the failure, if any.
func (e *APIError) Unwrap() error { return e.Err }

// statusError maps a non-2xx response to the reference server's texts.
func statusError(resp *http.Response, url string, now time.Time) *APIError {
	e := &APIError{Status: resp.StatusCode, URL: url}
	text := statusText(resp)
	switch {
	case resp.StatusCode == http.StatusUnauthorized:
		e.Code = CodeUnauthorized
		e.message = "Unauthorized: Invalid or expired API key. Check your CHRONOVA_API_KEY configuration."
	case resp.StatusCode == http.StatusNotFound:
		e.Code = CodeNotFound
		e.message = "Not found: The requested resource does not exist."
	case resp.StatusCode == http.StatusTooManyRequests:
		e.Code = CodeRateLimited
		e.RetryAfter = retryAfter(resp.Header, now)
		e.message = "Rate limited: Too many requests."
		if e.RetryAfter > 0 {
			e.message = fmt.Sprintf("Rate limited: Too many requests. Retry after %d seconds.", e.RetryAfter)
		}
	case resp.StatusCode >= 500:
		e.Code = CodeServerError
		e.message = fmt.Sprintf("Chronova server error: %s. Please try again later.", text)
	default:
		e.Code = CodeAPIError
		e.message = fmt.Sprintf("Chronova API error: %d %s", resp.StatusCode, text)
	}
	return e
}

// statusText is the reason phrase the server sent, or the standard one.
func statusText(resp *http.Response) string {
	if text, ok := strings.CutPrefix(resp.Status, strconv.Itoa(resp.StatusCode)+" "); ok && text != "" {
		return text
	}
	return http.StatusText(resp.StatusCode)
}

// retryAfter reads the wait a 429 asks for: Retry-After in seconds or as an
// HTTP date, else X-RateLimit-Reset as a Unix time. It rounds up so a reset
// 41.2 s away reads as 42 s, and returns 0 when neither header gives a wait.
func retryAfter(h http.Header, now time.Time) int {
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if secs, err := strconv.Atoi(v); err == nil && secs > 0 {
			return secs
		}
		if at, err := http.ParseTime(v); err == nil {
			return secondsUntil(at, now)
		}
	}
	if v := strings.TrimSpace(h.Get("X-RateLimit-Reset")); v != "" {
		if epoch, err := strconv.ParseFloat(v, 64); err == nil {
			return ceilSeconds(epoch - float64(now.UnixNano())/1e9)
		}
	}
	return 0
}

func secondsUntil(at, now time.Time) int {
	return ceilSeconds(at.Sub(now).Seconds())
}

// ceilSeconds rounds a wait up to whole seconds; a wait in the past, or one
// too long to be meant (over a year, or not a number), counts as unknown.
func ceilSeconds(secs float64) int {
	if !(secs > 0 && secs <= 366*24*3600) {
		return 0
	}
	return int(math.Ceil(secs))
}

func connectionError(url string, err error) *APIError {
	return &APIError{Code: CodeConnectionError, URL: url, Err: err,
		message: fmt.Sprintf("Cannot connect to Chronova at %s. Check CHRONOVA_API_URL configuration.", url)}
}

func timeoutError(url string, timeout time.Duration) *APIError {
	return &APIError{Code: CodeTimeout, URL: url,
		message: fmt.Sprintf("Timed out after %s waiting for Chronova at %s.", timeout, url)}
}

func cancelledError(url string, err error) *APIError {
	return &APIError{Code: CodeCancelled, URL: url, Err: err,
		message: fmt.Sprintf("The request to Chronova at %s was cancelled.", url)}
}

func badResponseError(url, what string, err error) *APIError {
	return &APIError{Code: CodeBadResponse, URL: url, Err: err,
		message: fmt.Sprintf("Unexpected response from Chronova at %s: %s.", url, what)}
}
