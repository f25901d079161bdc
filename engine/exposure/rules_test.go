package exposure

import (
	"strings"
	"testing"
)

// TestDecideHasHysteresis walks an auto endpoint's catalogue up and down
// around a 10,000-token threshold: it switches to search above it, and back
// only below 8,000.
func TestDecideHasHysteresis(t *testing.T) {
	mode := ""
	for _, step := range []struct {
		tokens int
		want   string
	}{
		{9000, All},     // fresh, under the threshold
		{10000, All},    // at it: not above
		{10001, Search}, // above
		{9500, Search},  // an upstream failed: still above 80 %
		{8000, Search},  // exactly 80 %: not below
		{7999, All},     // below 80 %
		{9999, All},     // back up, under the threshold: stays all
		{12000, Search},
	} {
		mode = Decide(mode, step.tokens, 10000)
		if mode != step.want {
			t.Fatalf("%d tokens: %s, want %s", step.tokens, mode, step.want)
		}
	}
	if got := Decide("", 9000, 10000); got != All {
		t.Errorf("a fresh endpoint between 80 %% and the threshold: %s", got)
	}
}

// TestModeFor: a profile's own exposure wins over the hub's; neither means
// all.
func TestModeFor(t *testing.T) {
	hub := Settings{Mode: Auto}
	if got := hub.ModeFor(&Profile{Exposure: Search}); got != Search {
		t.Errorf("profile exposure: %s", got)
	}
	if got := hub.ModeFor(&Profile{}); got != Auto {
		t.Errorf("profile without exposure: %s", got)
	}
	if got := (Settings{}).ModeFor(nil); got != All {
		t.Errorf("nothing set: %s", got)
	}
	if (Settings{}).Limit() != DefaultThreshold || (Settings{Threshold: 5}).Limit() != 5 {
		t.Error("Limit")
	}
}

// TestProfilesMatchFullNames: a profile's globs match <service>__<tool>,
// and its services list narrows by service.
func TestProfilesMatchFullNames(t *testing.T) {
	p := &Profile{Services: []string{"github"}, Tools: []string{"github__*pull_request*"}}
	for name, want := range map[string]bool{
		FullName("github", "create_pull_request"): true,
		FullName("github", "list_issues"):         false,
		"create_pull_request":                     false,
	} {
		if p.HasTool(name) != want {
			t.Errorf("HasTool(%s) = %v", name, !want)
		}
	}
	if !p.HasService("github") || p.HasService("linear") {
		t.Error("HasService")
	}
	var whole *Profile
	if !whole.HasService("linear") || !whole.HasTool("x__y") {
		t.Error("a nil profile offers everything")
	}
	if ToolAllowed([]string{"delete_*"}, nil, "delete_repo") || !ToolAllowed(nil, []string{"get_*"}, "get_me") || ToolAllowed(nil, []string{"get_*"}, "list") {
		t.Error("ToolAllowed")
	}
}

// TestEstimate: all lists every offered tool; search the meta-tools and the
// always tools; auto decides by the offered cost.
func TestEstimate(t *testing.T) {
	offered := []Tool{{"github", "get_me", 300}, {"github", "create_issue", 900}, {"notes", "find", 200}}
	s := Settings{Threshold: 1000, Always: []string{"github__get_*"}}
	for mode, want := range map[string]Cost{
		All:    {Mode: All, Tools: 3, Tokens: 1400, Offered: 3, OfferedTokens: 1400},
		Search: {Mode: Search, Tools: 4, Tokens: 350 + 300, Offered: 3, OfferedTokens: 1400},
		Auto:   {Mode: Search, Tools: 4, Tokens: 650, Offered: 3, OfferedTokens: 1400},
	} {
		if got := s.Estimate(offered, mode, 350); got != want {
			t.Errorf("%s: %+v, want %+v", mode, got, want)
		}
	}
	if got := s.Estimate(offered[:1], Auto, 350); got.Mode != All || got.Tokens != 300 {
		t.Errorf("auto under the threshold: %+v", got)
	}
}

// TestSees estimates what clients of several endpoints see from listings:
// scope, policy, profiles and modes, and services with no listing.
func TestSees(t *testing.T) {
	setup := Setup{
		Offers: []Offer{
			{Scoped: Scoped{Name: "github"}, DisabledTools: []string{"delete_*"}},
			{Scoped: Scoped{Name: "db", Project: "/work/api"}},
			{Scoped: Scoped{Name: "linear"}},
		},
		Settings: Settings{Mode: All},
		Profiles: map[string]*Profile{"review": {Name: "review", Tools: []string{"github__*pull*"}, Exposure: Search}},
	}
	l := &Listings{MetaTokens: 300, Tools: map[string][]Tool{
		"github": {{"github", "create_pull_request", 500}, {"github", "delete_repo", 200}, {"github", "list_issues", 400}},
		"db":     {{"db", "query", 100}},
	}}
	user := setup.Sees(l, "", "")
	if user.Tools != 2 || user.Tokens != 900 || user.Known || strings.Join(user.Unlisted, ",") != "linear" || user.Endpoint != "/mcp" {
		t.Errorf("user level: %+v", user)
	}
	project := setup.Sees(l, "", "/work/api/src")
	if project.Tools != 3 || project.Tokens != 1000 {
		t.Errorf("in the project: %+v", project)
	}
	review := setup.Sees(l, "review", "")
	if review.Mode != Search || review.Tools != 3 || review.Tokens != 300 || review.Offered != 1 || review.OfferedTokens != 500 || review.Endpoint != "/mcp/profile/review" {
		t.Errorf("profile review: %+v", review)
	}
	if none := setup.Sees(nil, "", ""); none.Known || len(none.Unlisted) != 2 {
		t.Errorf("no listings: %+v", none)
	}
	if gone := setup.Sees(l, "gone", ""); !gone.NoProfile || gone.Tools != 0 {
		t.Errorf("an undefined profile: %+v", gone)
	}
}

// A profile needs the services it has whose tools one of its globs can
// match; a hub serving only the profile starts no other.
func TestProfileNeeds(t *testing.T) {
	for _, tc := range []struct {
		services, tools []string
		service         string
		want            bool
	}{
		{nil, nil, "github", true},
		{[]string{"github"}, nil, "github", true},
		{[]string{"github"}, nil, "slack", false},
		{nil, []string{"github__create_*"}, "github", true},
		{nil, []string{"github__create_*"}, "git", false},
		{nil, []string{"github__create_*"}, "slack", false},
		{nil, []string{"git*"}, "github", true},
		{nil, []string{"git*"}, "slack", false},
		{nil, []string{"*__search"}, "slack", true},
		{nil, []string{"?lack__post"}, "slack", true},
		{[]string{"slack"}, []string{"github__*"}, "slack", false},
		{[]string{"slack", "github"}, []string{"github__*"}, "github", true},
	} {
		p := &Profile{Name: "p", Services: tc.services, Tools: tc.tools}
		if got := p.Needs(tc.service); got != tc.want {
			t.Errorf("services %v tools %v: Needs(%q) = %v, want %v", tc.services, tc.tools, tc.service, got, tc.want)
		}
	}
	if !(*Profile)(nil).Needs("any") {
		t.Error("the whole hub does not need a service")
	}
}
