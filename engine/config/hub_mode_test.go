package config

import (
	"strings"
	"testing"
)

// TestHubModes checks the three values of a link's hub: true gives the
// aggregated entry, "per-service" one hub entry per listed service (with
// transport = "http" allowed), false neither.
func TestHubModes(t *testing.T) {
	const svc = "service \"github\" {\n command = \"gh-mcp\"\n}\n"
	for _, c := range []struct {
		hub             string
		whole, perEntry bool
	}{
		{"true", true, false},
		{"false", false, false},
		{`"per-service"`, false, true},
	} {
		cfg := mustLoad(t, svc+"link \"l\" {\n tools = [\"claude\"]\n services = [\"github\"]\n hub = "+c.hub+"\n}\n")
		l := cfg.Links[0]
		if l.Hub != c.whole || l.PerService != c.perEntry {
			t.Errorf("hub = %s: Hub %v, PerService %v; want %v, %v", c.hub, l.Hub, l.PerService, c.whole, c.perEntry)
		}
	}
	cfg := mustLoad(t, svc+"link \"l\" {\n tools = [\"claude\"]\n services = [\"github\"]\n hub = \"per-service\"\n transport = \"http\"\n}\n")
	if l := cfg.Links[0]; !l.PerService || l.Transport != TransportHTTP {
		t.Errorf("per-service over http: %+v", l)
	}
}

// TestHubModeDiagnostics checks every value of hub that is not one of the
// three is refused where it was written, saying what hub takes.
func TestHubModeDiagnostics(t *testing.T) {
	const svc = "service \"github\" {\n command = \"gh-mcp\"\n}\n"
	link := func(body string) string {
		return svc + "link \"l\" {\n tools = [\"claude\"]\n" + body + "}\n"
	}
	for src, want := range map[string]string{
		link(" services = [\"github\"]\n hub = \"per-servce\"\n"):                                           `chronicle.hcl:7,8-20: Invalid hub; hub is true (the hub's one entry), false, or "per-service" (one hub entry per listed service), not "per-servce". Did you mean "per-service"?`,
		link(" services = [\"github\"]\n hub = \"true\"\n"):                                                 `write hub = true, without quotes`,
		link(" services = [\"github\"]\n hub = 1\n"):                                                        `not a number`,
		link(" services = [\"github\"]\n hub = [\"github\"]\n"):                                             `hub is true (the hub's one entry), false, or "per-service"`,
		link(" skills = [\"*\"]\n hub = \"per-service\"\n"):                                                 `hub = "per-service" writes one hub entry for each service the link lists: the link "l" needs services = [...]`,
		link(" services = [\"github\"]\n hub = \"per-service\"\n profile = \"p\"\n") + "profile \"p\" {}\n": `a profile applies to the aggregated entry (hub = true)`,
	} {
		_, diags := load(t, src, nil, nil)
		if !diags.HasErrors() || !strings.Contains(diags.Error(), want) {
			t.Errorf("%s\n got: %v\nwant: %s", src, diags, want)
		}
	}
}
