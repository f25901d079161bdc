package search

import "sync"

// expansions maps a query term to related terms the index may use instead:
// the words developers and tool authors use for one thing ("folder" and
// "directory", "ticket" and "issue", "remove" and "delete"). They were
// chosen as general vocabulary, from the misses of the tune split, never
// from single queries; a related term weighs Params.Related of a term the
// query has.
var relatedGroups = [][]string{
	// Things.
	{"directory", "folder", "dir"},
	{"repository", "repo", "project"},
	{"issue", "ticket", "bug"},
	{"comment", "note", "feedback", "remark"},
	{"reply", "answer", "respond", "thread", "discussion", "conversation"},
	{"commit", "revision", "sha", "changeset", "history"},
	{"diff", "change", "compare"},
	{"log", "output", "history"},
	{"user", "account", "member", "people", "person", "developer"},
	{"group", "team", "organization", "org"},
	{"database", "db"},
	{"collection", "table"},
	{"field", "property", "attribute", "column", "schema"},
	{"secret", "password", "credential"},
	{"cost", "price", "pricing"},
	{"usage", "consumption", "balance"},
	{"quota", "limit"},
	{"role", "permission", "access"},
	{"config", "configuration", "setting", "option", "preference"},
	{"doc", "docs", "documentation"},
	{"library", "package", "framework"},
	{"code", "source"},
	{"website", "site", "web"},
	{"url", "link"},
	{"tag", "label"},
	{"version", "release"},
	{"event", "activity"},
	{"info", "metadata", "detail", "stat"},
	{"tree", "layout", "structure", "hierarchy"},
	{"size", "big", "large"},
	{"paper", "article", "publication"},
	{"pipeline", "ci", "build", "workflow"},
	{"kubectl", "kubernetes", "k8s"},
	{"process", "program", "pid"},
	{"message", "post", "chat"},
	{"channel", "room"},
	{"reaction", "react", "emoji"},
	{"status", "progress", "state", "finished", "done"},
	{"error", "failure", "fail", "broke", "break", "broken"},
	{"flaky", "intermittent", "intermittently"},
	{"match", "result", "hit"},
	{"request", "call", "xhr", "ajax"},
	{"network", "http", "traffic"},
	{"performance", "profile", "slow", "speed"},
	{"video", "screencast", "recording"},
	{"screenshot", "image", "picture"},
	{"page", "tab", "window"},
	{"dialog", "popup", "alert", "confirm", "prompt", "modal"},
	{"key", "keyboard", "shortcut", "keystroke"},
	{"dropdown", "select", "option"},
	{"draft", "pending", "unpublished"},
	{"nested", "recursive"},
	{"next", "more"},
	{"many", "multiple", "bulk", "all", "every"},
	{"monitor", "watch"},
	{"know", "knowledge"},
	{"sum", "total", "plus", "add"},
	{"remember", "memorize", "store", "entity", "observation"},
	// Actions.
	{"create", "make", "new", "add"},
	{"delete", "remove", "erase", "drop", "wipe", "destroy", "forget", "rid", "purge"},
	{"list", "show", "enumerate", "display"},
	{"get", "fetch", "retrieve", "obtain"},
	{"read", "view"},
	{"search", "find", "look", "lookup", "query", "discover", "grep", "filter"},
	{"update", "modify", "change", "edit", "patch", "set", "alter"},
	{"run", "execute", "exec", "invoke", "launch", "trigger", "start", "evaluate", "eval"},
	{"stop", "cancel", "halt", "abort"},
	{"kill", "terminate"},
	{"close", "shut", "exit"},
	{"move", "rename", "relocate"},
	{"merge", "land"},
	{"fork", "copy", "clone"},
	{"deploy", "ship"},
	{"retry", "rerun"},
	{"validate", "lint", "check", "verify"},
	{"protect", "lock"},
	{"publish", "submit"},
	{"scrape", "extract", "parse"},
	{"upload", "attach"},
	{"navigate", "visit", "browse"},
	{"click", "press", "tap"},
	{"type", "enter", "input", "fill"},
	{"emulate", "simulate", "mimic"},
	{"toggle", "enable", "disable", "switch"},
	{"explain", "describe", "mean"},
	{"resize", "viewport"},
}

// abbreviations expand a query word into the words it stands for, at full
// weight: they mean exactly that.
var abbreviations = map[string]string{
	"pr":    "pull request",
	"prs":   "pull requests",
	"mr":    "merge request",
	"mrs":   "merge requests",
	"rg":    "resource group",
	"db":    "database",
	"dbs":   "databases",
	"repo":  "repository",
	"dir":   "directory",
	"k8s":   "kubernetes",
	"vm":    "virtual machine",
	"vms":   "virtual machines",
	"env":   "environment",
	"gh":    "github",
	"mongo": "mongodb",
	"js":    "javascript",
}

// related returns, by term, the terms related to it (stemmed once).
var related = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, group := range relatedGroups {
		var terms []string
		for _, w := range group {
			if t, ok := term(w); ok {
				terms = append(terms, t)
			}
		}
		for _, a := range terms {
			for _, b := range terms {
				if a != b && !contains(m[a], b) {
					m[a] = append(m[a], b)
				}
			}
		}
	}
	return m
})

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// A concept is one term of a query with the terms related to it: a tool
// that has any of them has the concept, a related term counting rel of an
// occurrence of the query's own.
type concept struct {
	terms   []string
	weights []float64
}

// queryConcepts returns the query's concepts: one per distinct term, with
// abbreviations spelled out ("pr" also gives "pull" and "request").
func queryConcepts(query string, rel float64) []concept {
	var own []string
	for _, w := range Words(query) {
		if long, ok := abbreviations[w]; ok {
			own = append(own, Terms(long)...)
		}
		if t, ok := term(w); ok {
			own = append(own, t)
		}
	}
	seen := map[string]bool{}
	var out []concept
	for _, t := range own {
		if seen[t] {
			continue
		}
		seen[t] = true
		c := concept{terms: []string{t}, weights: []float64{1}}
		if rel > 0 {
			for _, r := range related()[t] {
				c.terms = append(c.terms, r)
				c.weights = append(c.weights, rel)
			}
		}
		out = append(out, c)
	}
	return out
}
