package own

import (
	"strings"
	"testing"
)

// A subject is a place as a test describes it.
type subject struct {
	seen Seen
	diff string
}

func (s subject) What() string { return "cursor's entry \"docs\"" }
func (s subject) Seen() Seen   { return s.seen }
func (s subject) Diff() string { return s.diff }

const addr = `link.l["cursor"].service.docs`

func TestDecide(t *testing.T) {
	mine := &Record{Address: addr, Hash: "h1", Rendered: "r1"}
	present := func(h string) Seen { return Seen{Hash: h} }
	for _, tc := range []struct {
		name   string
		c      Case
		action Action
		reason string // a part of the reason; "" for none
		diff   bool
		record bool
	}{
		{"new", Case{Want: "r1", Subject: subject{seen: Seen{Absent: true}}}, Create, "", false, false},
		{"removed by hand", Case{Want: "r1", Record: mine, Subject: subject{seen: Seen{Absent: true}}}, Create, reasonRewrite, false, false},
		{"mine, unchanged", Case{Want: "r1", Record: mine, Subject: subject{seen: present("h1")}}, NoOp, "", false, false},
		{"mine, redeclared", Case{Want: "r2", Record: mine, Subject: subject{seen: present("h1"), diff: "-a\n+b\n"}}, Update, "", true, false},
		{"mine, redeclared, no diff", Case{Want: "r2", Record: mine, Subject: subject{seen: present("h1")}}, Update, reasonRedeclared, false, false},
		{"renamed link", Case{Address: "link.m", Want: "r1", Record: mine, Subject: subject{seen: present("h1")}}, Update, "recorded under link.m", false, true},
		{"interrupted", Case{Want: "r1", Intended: true, Subject: subject{seen: Seen{Hash: "h9", Declared: true}}}, Update, reasonInterrupted, false, true},
		{"edited to match", Case{Want: "r1", Record: mine, Subject: subject{seen: Seen{Hash: "h9", Declared: true}}}, Update, reasonMatches, false, true},
		{"drift", Case{Want: "r1", Record: mine, Subject: subject{seen: present("h9"), diff: "-x\n+y\n"}}, Conflict, "drift: cursor's entry \"docs\" was " + EditedSince, true, false},
		{"drift, replace", Case{Want: "r1", Record: mine, Replace: true, Subject: subject{seen: present("h9"), diff: "d"}}, Update, "--replace writes the declared version", true, false},
		{"drift, foreign, replace", Case{Want: "r1", Record: mine, Replace: true, Subject: subject{seen: Seen{Foreign: true, There: "a real directory is at /x"}}}, Replace, "a real directory is at /x instead of what chronicle wrote", false, false},
		{"identical, not mine", Case{Want: "r1", Subject: subject{seen: Seen{Hash: "h9", Declared: true}}}, Conflict, "identical to the declared one, but chronicle did not write it; chronicle import", false, false},
		{"identical, import", Case{Want: "r1", Import: true, Subject: subject{seen: Seen{Hash: "h9", Declared: true}}}, Update, reasonImported, false, true},
		{"not mine", Case{Want: "r1", Subject: subject{seen: present("h9"), diff: "d"}}, Conflict, "is there, but chronicle did not write it; it is never overwritten (chronicle apply --replace", true, false},
		{"not mine, replace", Case{Want: "r1", Replace: true, Subject: subject{seen: present("h9"), diff: "d"}}, Update, "--replace takes over", true, false},
		{"not mine, moves aside", Case{Want: "r1", MovesAside: true, Subject: subject{seen: present("h9"), diff: "d"}}, Conflict, "moves it into a kept backup set first", true, false},
		{"not mine, moves aside, replace", Case{Want: "r1", MovesAside: true, Replace: true, Subject: subject{seen: Seen{Foreign: true, There: "a file is at /x"}}}, Replace, "a file is at /x; --replace moves it", false, false},
		{"not mine, import as is", Case{Want: "r1", Import: true, AsIs: KeepAsIs, Subject: subject{seen: present("h9"), diff: "d"}}, Update, reasonImportAsIs, true, true},
		{"bare text", Case{Want: "r1", Subject: subject{seen: Seen{Absent: true, Bare: true}}}, Conflict, "without markers", false, false},
		{"bare text, import", Case{Want: "r1", Import: true, Subject: subject{seen: Seen{Absent: true, Bare: true}}}, Update, "markers put around it", false, false},
		{"ignored", Case{Want: "r1", Record: mine, Ignored: true, Subject: subject{seen: present("h9")}}, Ignore, Ignored, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.c.Address == "" {
				tc.c.Address = addr
			}
			d := Decide(tc.c)
			if d.Action != tc.action || !strings.Contains(d.Reason, tc.reason) || (d.Diff != "") != tc.diff || d.RecordOnly != tc.record {
				t.Fatalf("Decide = %s %q diff %q record-only %v; want %s %q diff %v record-only %v", d.Action, d.Reason, d.Diff, d.RecordOnly, tc.action, tc.reason, tc.diff, tc.record)
			}
			if tc.action == Conflict && strings.HasPrefix(d.Reason, "drift:") && !strings.Contains(d.Reason, "chronicle machine --ignore '"+addr+"'") {
				t.Fatalf("a drift offers to keep the edit on this machine: %q", d.Reason)
			}
		})
	}
}

func TestDecideImportRewrite(t *testing.T) {
	d := Decide(Case{Address: addr, Want: "r1", Import: true, AsIs: RewriteAsIs, Subject: subject{seen: Seen{Hash: "h9"}, diff: "d"}})
	if d.Action != Update || !d.RecordOnly || !d.Rewrite {
		t.Fatalf("%+v", d)
	}
}

func TestRelease(t *testing.T) {
	rec := &Record{Address: addr, Hash: "h1"}
	for _, tc := range []struct {
		name   string
		c      Case
		action Action
		reason string
	}{
		{"gone", Case{Subject: subject{seen: Seen{Absent: true}}}, Delete, reasonGone},
		{"unchanged", Case{Subject: subject{seen: Seen{Hash: "h1"}}, After: "a snapshot is kept"}, Delete, "no longer declared; a snapshot is kept"},
		{"edited", Case{Subject: subject{seen: Seen{Hash: "h2"}}}, Conflict, "no longer declared, but cursor's entry \"docs\" was " + EditedSince + "; not removed (chronicle state rm"},
		{"foreign", Case{Subject: subject{seen: Seen{Foreign: true, There: "a link to /elsewhere is at /x"}}}, Conflict, "a link to /elsewhere is at /x instead of what chronicle wrote"},
		{"ignored", Case{Ignored: true, Subject: subject{seen: Seen{Hash: "h1"}}}, Ignore, Ignored},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.c.Address, tc.c.Record = addr, rec
			d := Release(tc.c)
			if d.Action != tc.action || !strings.Contains(d.Reason, tc.reason) {
				t.Fatalf("Release = %s %q; want %s %q", d.Action, d.Reason, tc.action, tc.reason)
			}
		})
	}
}

func TestCommands(t *testing.T) {
	c := Commands{Apply: "chronicle sync", Import: "chronicle --chdir /c import"}
	for got, want := range map[string]string{
		c.Replace(addr):           `chronicle sync --replace 'link.l["cursor"].service.docs'`,
		c.ImportAddr("skill.pdf"): "chronicle --chdir /c import skill.pdf",
		c.Destroy():               "chronicle sync --destroy",
		c.SkipConflicts():         "chronicle sync --skip-conflicts",
		Commands{}.Replace("hub"): "chronicle apply --replace hub",
		Commands{}.StateRm("a'b"): `chronicle state rm 'a'\''b'`,
		Commands{}.Ignore("x"):    "chronicle machine --ignore x",
		Commands{}.ImportAddr(""): "chronicle import ''",
	} {
		if got != want {
			t.Errorf("%s, want %s", got, want)
		}
	}
}

func TestActions(t *testing.T) {
	for a := NoOp; a <= Ignore; a++ {
		b, err := a.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var back Action
		if err := back.UnmarshalJSON(b); err != nil || back != a {
			t.Fatalf("%s: %v %v", a, back, err)
		}
		if a.Changes() != (a == Create || a == Update || a == Delete || a == Replace) {
			t.Errorf("%s.Changes() = %v", a, a.Changes())
		}
	}
	if Ignore.Symbol() != "=" || Read.Symbol() != "<=" {
		t.Fatal("symbols")
	}
	var a Action
	if a.UnmarshalJSON([]byte(`"frobnicate"`)) == nil || a.UnmarshalJSON([]byte(`3`)) == nil {
		t.Fatal("unknown actions are errors")
	}
}
