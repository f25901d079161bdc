package gitsource

import (
	"strings"
	"testing"
)

// A URL that does not parse is quoted without its password.
func TestUnparsedURLHidesItsPassword(t *testing.T) {
	msg := Check("https://me:hunter2@github.com/%zz")
	if strings.Contains(msg, "hunter2") || !strings.Contains(msg, "https://******@github.com/%zz") {
		t.Fatalf("Check = %q", msg)
	}
	if got := withoutUserinfo("https://github.com/a@b"); got != "https://github.com/a@b" {
		t.Fatalf("an @ in the path is not userinfo: %q", got)
	}
	if got := withoutUserinfo("not a url"); got != "not a url" {
		t.Fatal(got)
	}
}
