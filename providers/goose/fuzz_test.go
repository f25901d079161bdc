package goose

import (
	"testing"

	tt "github.com/chronicle-dev/chronicle/providers/jsontool/jsontooltest"
)

// FuzzRead reads any bytes as config.yaml: entries or an error, never a
// panic; seeded with the fixture and the yamlfile corpus's shapes.
func FuzzRead(f *testing.F) {
	f.Add([]byte("extensions:\n  x:\n    type: streamable_http\n    enabled: true\n    uri: $U\n    envs: {U: https://x}\n    env_keys: [T]\n    headers: {A: ${T}}\n"))
	f.Add([]byte("extensions:\n  x:\n    type: stdio\n    enabled: true\n    cmd: x\n    args: []\n    timeout: 18446744073709551615\n"))
	tt.Fuzz(f, New(), "goose/home/.config/goose/config.yaml")
}
