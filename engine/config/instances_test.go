package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/chronicle-dev/chronicle/engine/machine"
)

// loadOn loads src as chronicle.hcl on a machine with the given tags.
func loadOn(t *testing.T, src string, tags ...string) (*Config, hcl.Diagnostics) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "chronicle.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, _, diags := Load(dir, Options{
		Home: "/home/dev",
		Getenv: func(k string) (string, bool) {
			return map[string]string{"ACME_TOKEN": "tok-acme"}[k], k == "ACME_TOKEN"
		},
		KnownTools: testTools,
		Machine:    machine.Facts{Name: "laptop", OS: "linux", Tags: tags},
	})
	return cfg, diags
}

func serviceNames(cfg *Config) []string {
	var out []string
	for _, s := range cfg.Services {
		out = append(out, s.Name)
	}
	return out
}

func linkNames(cfg *Config) []string {
	var out []string
	for _, l := range cfg.Links {
		out = append(out, l.Name)
	}
	return out
}

// TestForEachInstances: each key becomes an ordinary block named
// <label>-<key> or by name, whose expressions see each.key and each.value,
// and the configuration records where each instance comes from.
func TestForEachInstances(t *testing.T) {
	cfg, diags := loadOn(t, `
locals {
  orgs = { acme = "Acme Inc", globex = "Globex" }
}
service "github" {
  for_each = local.orgs
  command  = "gh-mcp"
  args     = ["--org", each.key, "--title", each.value]
}
service "db" {
  for_each = toset(["eu", "us"])
  name     = "db-${each.key}-main"
  url      = "https://${each.value}.db.example.com/mcp"
}
service "plain" {
  command = "x"
}
link "orgs" {
  for_each = local.orgs
  tools    = ["claude"]
  services = ["github-${each.key}"]
}
link "regions" {
  for_each = ["eu", "us"]
  name     = "region-${each.value}"
  tools    = ["cursor"]
  services = ["db-${each.key}-main", "plain"]
}
`)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got, want := serviceNames(cfg), []string{"github-acme", "github-globex", "db-eu-main", "db-us-main", "plain"}; !slices.Equal(got, want) {
		t.Fatalf("services %v, want %v", got, want)
	}
	gh := cfg.Service("github-globex")
	if args := fmt.Sprint(gh.Args); args != "[--org globex --title Globex]" {
		t.Fatalf("each.key/each.value: args %s", args)
	}
	if u := cfg.Service("db-us-main").URL.HCL(); u != "https://us.db.example.com/mcp" {
		t.Fatalf("url %s", u)
	}
	if got, want := linkNames(cfg), []string{"orgs-acme", "orgs-globex", "region-eu", "region-us"}; !slices.Equal(got, want) {
		t.Fatalf("links %v, want %v", got, want)
	}
	if s := cfg.Links[1].Services; !slices.Equal(s, []string{"github-globex"}) {
		t.Fatalf("link orgs-globex names %v", s)
	}
	want := map[string]string{
		"service.github-acme": `service.github["acme"]`, "service.github-globex": `service.github["globex"]`,
		"service.db-eu-main": `service.db["eu"]`, "service.db-us-main": `service.db["us"]`,
		"link.orgs-acme": `link.orgs["acme"]`, "link.orgs-globex": `link.orgs["globex"]`,
		"link.region-eu": `link.regions["eu"]`, "link.region-us": `link.regions["us"]`,
	}
	if fmt.Sprint(cfg.Instances) != fmt.Sprint(want) {
		t.Fatalf("instances %v\nwant %v", cfg.Instances, want)
	}
	if r := cfg.ServiceRanges["github-acme"]; r.Start.Line != 5 {
		t.Fatalf("an instance's range is its block's: %v", r)
	}

	// each.value keeps its marks: nonsensitive(...) is honoured through it.
	_, diags = loadOn(t, `
service "s" {
  for_each = { acme = nonsensitive("not-a-token") }
  command  = "x"
  env      = { GITHUB_TOKEN = each.value }
}`)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
}

// TestForEachManyInstances decodes enough instances to be decoded on every
// core (go test -race checks the shared bodies).
func TestForEachManyInstances(t *testing.T) {
	cfg, diags := loadOn(t, `
service "s" {
  for_each = toset([for i in range(200) : "n${i}"])
  command  = "run"
  args     = [each.key]
  timeout  = "${10 + length(each.value)}s"
}`)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if len(cfg.Services) != 200 || cfg.Service("s-n199").Args[0].HCL() != "n199" {
		t.Fatalf("%d services", len(cfg.Services))
	}
}

// TestWhen: a block whose when is false is decoded, then left out; what the
// blocks on this machine say about it is dropped, each reference once.
func TestWhen(t *testing.T) {
	src := `
locals {
  work = contains(machine.tags, "work")
}
service "work-db" {
  when    = local.work
  command = "db-mcp"
}
service "notes" {
  command = "notes-mcp"
}
service "gh" {
  for_each = toset(["acme", "home"])
  when     = each.key == "home" || local.work
  command  = "gh"
}
skill "work-skill" {
  when   = local.work
  source = "./skills/work-skill"
}
policy "work-db" {
  disabled_tools = ["drop_*"]
}
policy "notes" {
  when    = machine.os == "darwin"
  enabled = false
}
profile "work" {
  services = ["work-db"]
}
profile "mixed" {
  services = ["work-db", "notes"]
}
link "everywhere" {
  tools    = ["claude", "cursor"]
  services = ["work-db", "notes", "gh-acme", "gh-home"]
  skills   = ["work-skill"]
}
link "ide" {
  tools   = ["cursor"]
  hub     = true
  profile = "work"
}
link "office" {
  when     = local.work
  tools    = ["claude"]
  services = ["work-db"]
}
`
	home, diags := loadOn(t, src, "home")
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got := serviceNames(home); !slices.Equal(got, []string{"notes", "gh-home"}) {
		t.Fatalf("services at home %v", got)
	}
	if len(home.Skills) != 0 || len(home.Policies) != 0 || home.ServiceRanges["work-db"] != (hcl.Range{}) {
		t.Fatalf("skills %v, policies %v", home.Skills, home.Policies)
	}
	if got := linkNames(home); !slices.Equal(got, []string{"everywhere", "ide"}) {
		t.Fatalf("links at home %v", got)
	}
	every := home.Links[0]
	if !slices.Equal(every.Services, []string{"notes", "gh-home"}) || len(every.Skills) != 0 {
		t.Fatalf("link everywhere at home: services %v, skills %v", every.Services, every.Skills)
	}
	if ide := home.Links[1]; ide.Hub || ide.Profile != "" {
		t.Fatalf("a link serving an absent profile keeps its hub entry: %+v", ide)
	}
	if len(home.Profiles) != 1 || home.Profiles[0].Name != "mixed" || !slices.Equal(home.Profiles[0].Services, []string{"notes"}) {
		t.Fatalf("profiles at home %+v", home.Profiles)
	}
	var absent []string
	for _, a := range home.Absent {
		absent = append(absent, a.Address()+" "+a.From)
	}
	wantAbsent := []string{`link.office `, `policy.notes `, `service.gh-acme service.gh["acme"]`, `service.work-db `, `skill.work-skill `}
	if !slices.Equal(absent, wantAbsent) {
		t.Fatalf("absent %q\nwant %q", absent, wantAbsent)
	}
	if !slices.Equal(home.AbsentNames("service"), []string{"gh-acme", "work-db"}) {
		t.Fatalf("absent service names %v", home.AbsentNames("service"))
	}
	var dropped []string
	for _, d := range home.Dropped {
		dropped = append(dropped, d.From+" -> "+d.To)
	}
	wantDropped := []string{
		"policy.work-db -> service.work-db",
		"profile.work -> service.work-db",
		"profile.work -> profile.work",
		"profile.mixed -> service.work-db",
		"link.everywhere -> service.work-db",
		"link.everywhere -> service.gh-acme",
		"link.everywhere -> skill.work-skill",
		"link.ide -> profile.work",
	}
	if !slices.Equal(dropped, wantDropped) {
		t.Fatalf("dropped %q\nwant %q", dropped, wantDropped)
	}
	if d := home.Dropped[4].Detail; d != "link.everywhere names service.work-db, whose when is false on this machine: it is left out here." {
		t.Fatalf("detail %q", d)
	}

	work, diags := loadOn(t, src, "work")
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if len(work.Services) != 4 || len(work.Links) != 3 || len(work.Skills) != 1 || len(work.Policies) != 1 || len(work.Dropped) != 0 {
		t.Fatalf("at work: %v %v, dropped %v", serviceNames(work), linkNames(work), work.Dropped)
	}
	if len(work.Absent) != 1 || work.Absent[0].Address() != "policy.notes" {
		t.Fatalf("absent at work %v", work.Absent)
	}
}

// TestWhenChecksAbsentBlocks: every block and every reference is checked,
// whatever when says.
func TestWhenChecksAbsentBlocks(t *testing.T) {
	_, diags := loadOn(t, `
service "off" {
  when     = false
  command  = "x"
  timeout  = "soon"
}
link "off" {
  when     = false
  tools    = ["claude"]
  services = ["nowhere"]
}
skill "off" {
  when = false
  git  = "http://example.com/x"
}
`)
	for _, want := range []string{"Invalid duration", "Link to an undeclared service", "Unsupported git URL"} {
		if !hasDiag(diags, want) {
			t.Errorf("no %q diagnostic for an absent block: %v", want, diags)
		}
	}
}

func hasDiag(diags hcl.Diagnostics, summary string) bool {
	return slices.ContainsFunc(diags, func(d *hcl.Diagnostic) bool { return d.Summary == summary })
}

// TestMetaArgumentMistakes: each mistake is a diagnostic at the expression
// or name it concerns (line and the text under the range), with a word on
// the fix.
func TestMetaArgumentMistakes(t *testing.T) {
	for name, tc := range map[string]struct {
		src     string
		summary string
		detail  string
		line    int
		under   string // the source text the range covers
	}{
		"when null": {`service "s" {
  when    = null
  command = "x"
}`, "Null when", "true or false", 2, "null"},
		"when not a bool": {`skill "s" {
  when   = "yes"
  source = "./s"
}`, "Incorrect when", "this is a string", 2, `"yes"`},
		"when with an unknown variable": {`profile "p" {
  when = var.nope
}`, "Unsupported attribute", "", 2, ".nope"},
		"list with duplicates": {`service "s" {
  command  = "x"
  for_each = ["a", "b", "a"]
}`, "Duplicate key in for_each", `"a" is in the list more than once`, 3, `["a", "b", "a"]`},
		"each outside for_each": {`service "s" {
  command = "x"
  args    = [each.key]
}`, "each outside for_each", `service "s" has none. Did you mean to add for_each`, 3, "each"},
		"each in when outside for_each": {`policy "s" {
  when = each.key == "x"
}
service "s" {
  command = "x"
}`, "each outside for_each", `policy "s" has none`, 2, "each"},
		"key breaks the naming rule": {`link "l" {
  for_each = { "Acme Inc" = 1 }
  tools    = ["claude"]
  hub      = true
}`, "Invalid instance name", `link.l["Acme Inc"] is an instance of link "l". The key "Acme Inc" makes the name "l-Acme Inc"`, 2, `{ "Acme Inc" = 1 }`},
		"name breaks the naming rule": {`service "s" {
  for_each = toset(["a"])
  name     = "S_${each.key}"
  command  = "x"
}`, "Invalid instance name", `Its name attribute gives "S_a"`, 3, `"S_${each.key}"`},
		"key collides with a block": {`service "gh" {
  for_each = toset(["acme", "x"])
  command  = "x"
}
service "gh-acme" {
  command = "y"
}`, "Duplicate service name \"gh-acme\"", `service.gh["acme"] is named "gh-acme", as is the service block at`, 2, `toset(["acme", "x"])`},
		"name collides between instances": {`service "gh" {
  for_each = toset(["a", "b"])
  name     = "same"
  command  = "x"
}`, "Duplicate service name \"same\"", `service.gh["b"] is named "same", as is service.gh["a"]`, 3, `"same"`},
		"null name": {`service "gh" {
  for_each = toset(["a"])
  name     = null
  command  = "x"
}`, "Null name", `such as "gh-${each.key}"`, 3, "null"},
		"name without for_each": {`service "s" {
  name    = "t"
  command = "x"
}`, "name without for_each", `the block's label is its name ("s")`, 2, "name"},
		"for_each on a skill": {`skill "s" {
  for_each = toset(["a"])
  source   = "./s"
}`, "for_each not allowed here", "for_each applies to service and link blocks", 2, "for_each"},
		"for_each is a string": {`service "s" {
  for_each = "abc"
  command  = "x"
}`, "Incorrect for_each", "this is a string", 2, `"abc"`},
		"for_each is null": {`service "s" {
  for_each = null
  command  = "x"
}`, "Null for_each", "", 2, "null"},
		"for_each of lists": {`service "s" {
  for_each = [["a"]]
  command  = "x"
}`, "Incorrect for_each", "an element here is a", 2, `[["a"]]`},
		"sensitive for_each": {`variable "orgs" {
  default   = ["a"]
  sensitive = true
}
service "s" {
  for_each = var.orgs
  command  = "x"
}`, "Sensitive value would be stored in plain text", "var.orgs", 6, "var.orgs"},
		"a secret as a key": {`service "s" {
  for_each = [secret("env:T")]
  command  = "x"
}`, "Secret not allowed here", "cannot be a secret() reference", 2, `[secret("env:T")]`},
		"a sensitive value in a for_each map": {`service "s" {
  for_each = { acme = env("ACME_TOKEN") }
  command  = "x"
  env      = { GITHUB_TOKEN = each.value }
}`, "Sensitive value would be stored in plain text", `env("ACME_TOKEN")`, 2, `{ acme = env("ACME_TOKEN") }`},
	} {
		t.Run(name, func(t *testing.T) {
			_, diags := loadOn(t, tc.src)
			var found *hcl.Diagnostic
			for _, d := range diags {
				if d.Severity == hcl.DiagError && d.Summary == tc.summary {
					found = d
					break
				}
			}
			if found == nil {
				t.Fatalf("no %q error among %v", tc.summary, diags)
			}
			if !strings.Contains(found.Detail, tc.detail) {
				t.Errorf("detail %q lacks %q", found.Detail, tc.detail)
			}
			if found.Subject == nil {
				t.Fatal("no range")
			}
			if found.Subject.Start.Line != tc.line {
				t.Errorf("range %v, want line %d", found.Subject, tc.line)
			}
			if got := tc.src[found.Subject.Start.Byte:found.Subject.End.Byte]; got != tc.under {
				t.Errorf("range covers %q, want %q", got, tc.under)
			}
		})
	}
}
