package mask

import (
	"strings"
	"testing"
)

// TestNamesAreNotMasked: what names a thing — a valid 64-character service
// name, the environment variable names the hub's log lists as withheld, a
// path — is shown as it is, in text and in source snippets; only values
// that look generated are hidden.
func TestNamesAreNotMasked(t *testing.T) {
	long := strings.Repeat("z", 64)
	words := "chronicle-service-for-the-internal-documentation-search-backend1"
	for _, text := range []string{
		`Error: Unsupported argument on chronicle.hcl line 1, in service "` + long + `":`,
		`link "all" { services = ["` + words + `"] }`,
		"docs: started with a minimal environment; withheld: ANTHROPIC_DEFAULT_SONNET_MODEL_NAME, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, PATH_TO_THE_SHARED_CONFIGURATION_DIR (pass what it needs with inherit_env = [\"NAME\"] or its env)",
		"snake_case_identifier_of_some_length_here",
		"/home/dev/projects/some-very-long-directory-name-here/sub",
		"/tmp/TestScanJSONAndText3390251/001/home/.cursor/mcp.json",
		"/Users/Dev/Projects2024/MyService/config.json",
	} {
		if got := Value(text); got != text {
			t.Errorf("Value masked a name:\n got %s\nwant %s", got, text)
		}
		if got := Source(text, nil); got != text {
			t.Errorf("Source masked a name:\n got %s\nwant %s", got, text)
		}
		var m Masker
		if got := m.Text(text); got != text {
			t.Errorf("Text masked a name:\n got %s\nwant %s", got, text)
		}
	}
}

// TestShapesNeedEntropy: a long run of one character (a 10 MB tool result
// of A's) or a placeholder is not a credential; generated values of every
// shape still are.
func TestShapesNeedEntropy(t *testing.T) {
	for _, text := range []string{
		strings.Repeat("A", 10<<20),
		strings.Repeat("0", 64),
		"deadbeefdeadbeefdeadbeefdeadbeef",
		"ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
		"sk-aaaaaaaaaaaaaaaa",
	} {
		if got := Value(text); got != text {
			t.Errorf("Value(%.40s…) = %.40s…, want it unchanged", text, got)
		}
	}
	for _, secret := range []string{
		"ghp_FAKE0123456789abcdefABCDEF0123",
		"sk-ant-api03-FAKEFAKEFAKE",
		"sk-test-FAKE-settings-key",
		"lin_api_FAKE0123456789abcdef",
		"9f86d081884c7d659a2feaa0c55ad015", // 32 hex digits: an API key, not a digest length
		"Zm9vYmFyYmF6cXV4Q3Vyc2VkVG9rZW4xMjM0NTY3ODkw",
		"AbC0dEf1GhI2jKl3MnO4pQr5StU6vWx7YzA8bCd9",
		"AbC0dEf1GhI2jKl3Mn/O4pQr5StU6vWx7YzA8bCd9+Zx=", // base64 with a slash
	} {
		if got := Value("x " + secret + " y"); strings.Contains(got, secret) {
			t.Errorf("Value left %s visible: %s", secret, got)
		}
	}
}
