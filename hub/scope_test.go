package hub

import (
	"reflect"
	"testing"

	"github.com/chronicle-dev/chronicle/hub/wire"
)

func TestVisible(t *testing.T) {
	services := []scoped{
		{Name: "github"}, {Name: "work-db", Project: "/home/dev/work"}, {Name: "api-db", Project: "/home/dev/work/api"}, {Name: "web-e2e", Project: "/home/dev/work/web"},
	}
	tests := []struct {
		root string
		want []string
	}{
		{"", []string{"github"}},
		{"/home/dev/other", []string{"github"}},
		{"/home/dev/work", []string{"github", "work-db"}},
		{"/home/dev/work/api/src", []string{"api-db", "github"}},
		{"/home/dev/work/apiary", []string{"github", "work-db"}},
		{"/home/dev/work/web", []string{"github", "web-e2e"}},
	}
	for _, tt := range tests {
		got := visible(services, tt.root)
		want := map[string]bool{}
		for _, w := range tt.want {
			want[w] = true
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("root %q: %v, want %v", tt.root, got, want)
		}
	}
	if wire.RootFromURI("file:///home/dev/work/") != "/home/dev/work" || wire.RootFromURI("https://x") != "" {
		t.Fatal("rootFromURI")
	}
}
