package exposure

import (
	"reflect"
	"testing"
)

func TestVisible(t *testing.T) {
	services := []Scoped{
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
		got := Visible(services, tt.root)
		want := map[string]bool{}
		for _, w := range tt.want {
			want[w] = true
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("root %q: %v, want %v", tt.root, got, want)
		}
	}
}
