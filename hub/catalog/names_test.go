package catalog

import (
	"regexp"
	"strings"
	"testing"
)

var validName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

func TestExposedName(t *testing.T) {
	tests := []struct{ service, tool, want string }{
		{"github", "create_issue", "github__create_issue"},
		{"api-db", "query", "api-db__query"},
	}
	for _, tt := range tests {
		if got := ExposedName(tt.service, tt.tool); got != tt.want {
			t.Errorf("ExposedName(%q, %q) = %q, want %q", tt.service, tt.tool, got, tt.want)
		}
	}
	long := strings.Repeat("a", 80)
	a, b := ExposedName("svc", long), ExposedName("svc", long+"b")
	if len(a) > MaxToolName || !validName.MatchString(a) || a == b {
		t.Fatalf("long names: %q and %q", a, b)
	}
	if ExposedName("svc", long) != a {
		t.Fatal("the same input gave another name")
	}
	// Names that only differ in characters that must be replaced stay apart.
	x, y := ExposedName("svc", "get.item"), ExposedName("svc", "get/item")
	if x == y || !validName.MatchString(x) || x == "svc__get_item" {
		t.Fatalf("sanitised names collide or lost their hash: %q %q", x, y)
	}
}

func FuzzExposedName(f *testing.F) {
	f.Add("github", "create_issue")
	f.Add("svc", strings.Repeat("x", 90))
	f.Add("s", "héllo wörld/..")
	f.Fuzz(func(t *testing.T, service, tool string) {
		got := ExposedName(service, tool)
		if !validName.MatchString(got) && !(service == "" && tool == "") {
			t.Fatalf("ExposedName(%q, %q) = %q is not a valid tool name", service, tool, got)
		}
		if got != ExposedName(service, tool) {
			t.Fatal("not deterministic")
		}
		if other := ExposedName(service, tool+"x"); other == got {
			t.Fatalf("two tools share the name %q", got)
		}
	})
}
