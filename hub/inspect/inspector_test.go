package inspect

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/internal/leaktest"
)

func TestInspectorKeepsTheLast300Masked(t *testing.T) {
	m := &mask.Masker{}
	m.Add("resolved-upstream-secret")
	in := New(m)
	for i := 0; i < 350; i++ {
		in.Add(DirRecv, "s1", []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"arguments":{"token":"resolved-upstream-secret"}}}`, i)))
	}
	in.Note("", "not json ghp_abcdefghijklmnopqrstuvwxyz0123456789")
	rs := in.Records()
	if len(rs) != InspectorSize || rs[0].Seq != 52 || rs[len(rs)-1].Direction != DirNote {
		t.Fatalf("got %d records from seq %d", len(rs), rs[0].Seq)
	}
	for _, r := range rs {
		if strings.Contains(string(r.Message), "resolved-upstream-secret") || strings.Contains(r.Note, "ghp_abcdefghij") {
			t.Fatalf("a secret was kept: %+v", r)
		}
	}
}

// TestInspectorKeepsABigResultElidedAndMasked keeps a 60 MB tool result as
// a hook does: the record is small, valid JSON, says what it left out,
// shows how the text begins and ends, and masks what it kept.
func TestInspectorKeepsABigResultElidedAndMasked(t *testing.T) {
	m := &mask.Masker{}
	m.Add(leaktest.BenchSecret)
	in := New(m)
	text := leaktest.BigText(60<<20, leaktest.BenchSecret+" "+leaktest.ShapedToken)
	res := mcp.NewToolResultText(text)
	in.AddLazy(DirSend, "s1", func() []byte { return mustJSON(map[string]any{"id": 3, "result": res}) })
	rs := in.Records()
	if len(rs) != 1 {
		t.Fatalf("%d records", len(rs))
	}
	r := rs[0]
	if len(r.Message) > RecordLimit+stringFloor {
		t.Errorf("the record keeps %d bytes of message", len(r.Message))
	}
	var msg struct {
		ID     int                `json:"id"`
		Result mcp.CallToolResult `json:"result"`
	}
	if err := json.Unmarshal(r.Message, &msg); err != nil || msg.ID != 3 || len(msg.Result.Content) != 1 {
		t.Fatalf("the kept message is not the result as JSON: %v %.300s", err, r.Message)
	}
	kept := msg.Result.Content[0].(mcp.TextContent).Text
	if r.Elided < len(text)-StringLimit || r.Elided > len(mustJSON(text)) || !strings.Contains(kept, " … "+strconv.Itoa(r.Elided)+" bytes left out … ") {
		t.Errorf("the record says %d bytes of %d were left out: %.200s", r.Elided, len(text), kept)
	}
	// The value the hub resolved is hidden whole, as in MCP traffic; the
	// token that only looks like one keeps its first letters.
	if !strings.HasPrefix(kept, "line 0: the key is ****** ghp_…******") || !strings.Contains(kept, "\nlast line: the key is ****** ghp_…******") {
		t.Errorf("the start or the end is not kept, masked:\n%.300s\n…\n%s", kept, kept[max(0, len(kept)-300):])
	}
	leaktest.AssertMasked(t, string(r.text))
	var read []Record
	w := httptest.NewRecorder()
	WriteRecords(w, rs)
	if err := json.Unmarshal(w.Body.Bytes(), &read); err != nil || len(read) != 1 || read[0].Elided != r.Elided {
		t.Errorf("/api/log's answer: %v %.300s", err, w.Body.String())
	}
}

// TestLogCopyBoundsEveryShape cuts down what is not one long string: many
// items, many members, deep nesting, a long key, text that is not JSON.
func TestLogCopyBoundsEveryShape(t *testing.T) {
	m := &mask.Masker{}
	m.Add(leaktest.BenchSecret)
	items := mustJSON(strings.Split(strings.Repeat("item "+leaktest.ShapedToken+",", 200_000), ","))
	members := map[string]string{}
	for i := range 50_000 {
		members["k"+strconv.Itoa(i)] = leaktest.BenchSecret
	}
	for _, c := range []struct {
		name, doc, marker string
	}{
		{"items", string(items), `"… 19`},
		{"members", string(mustJSON(members)), `"…":"… `},
		{"nesting", strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000), "bytes nested too deep left out"},
		{"key", `{"` + strings.Repeat("k", 1<<20) + `":1}`, "bytes left out"},
		{"escapes", string(mustJSON(strings.Repeat(`"\<`+leaktest.BenchSecret+"é秘\n", 100_000))), "bytes left out"},
	} {
		out, left := forLog(m, []byte(c.doc))
		if !json.Valid(out) || len(out) > RecordLimit+2*stringFloor || left < len(c.doc)/2 || !strings.Contains(string(out), c.marker) {
			t.Errorf("%s: %d bytes, %d left out, valid %v: %.200s … %s", c.name, len(out), left, json.Valid(out), out, out[max(0, len(out)-200):])
		}
		leaktest.AssertMasked(t, string(out))
	}
	in := New(m)
	in.Add(DirRecv, "", []byte("not json "+strings.Repeat(leaktest.BenchSecret+" ", 1<<20)))
	if r := in.Records()[0]; r.Message != nil || len(r.Note) > StringLimit+stringFloor || r.Elided == 0 || !strings.Contains(r.Note, "bytes left out") {
		t.Errorf("a long message that is not JSON: %d bytes of note, %d left out", len(r.Note), r.Elided)
	} else {
		leaktest.AssertMasked(t, r.Note)
	}
}

// TestCutsKeepSecretsWhole cuts a long string with a registered value, with
// characters JSON escapes, and strings masked for their shape at every
// position around where the start that is kept ends and the end that is
// kept begins: no half shows more than masking would.
func TestCutsKeepSecretsWhole(t *testing.T) {
	m := &mask.Masker{}
	m.Add(canary)
	m.Add(leaktest.BenchSecret)
	shown := []string{"hunter2", canary[:6], leaktest.BenchSecret[:6], leaktest.ShapedToken[:6]}
	check := func(what, kept string) {
		t.Helper()
		for _, part := range shown {
			if i := strings.Index(kept, part); i >= 0 {
				t.Fatalf("%s shows %q: %q", what, part, kept[max(0, i-30):min(len(kept), i+30)])
			}
		}
	}
	for _, secret := range []string{canary, leaktest.BenchSecret, leaktest.ShapedToken, "https://user:hunter2hunter2@example.com/x"} {
		for _, sep := range []string{"", " ", "\n"} {
			filler := strings.Repeat("x"+sep, StringLimit/len("x"+sep))
			for _, at := range []int{StringLimit * 3 / 4, 2*len(filler) + len(secret) - StringLimit/4} {
				for d := -len(secret) - 8; d <= 8; d++ {
					pos := max(0, min(at+d, 2*len(filler)))
					s := (filler + filler)[:pos] + secret + (filler + filler)[pos:]
					q := string(mustJSON(s))
					body := q[1 : len(q)-1]
					head, tail := cutBefore(m, body, StringLimit*3/4), cutAfter(m, body, len(body)-StringLimit/4)
					what := fmt.Sprintf("%q at %d (filler %q)", secret, pos, sep)
					// What is kept near the cuts, masked.
					check(what, m.Text(unquote(body[max(0, head-200):head])))
					check(what, m.Text(unquote(body[tail:min(len(body), tail+200)])))
					if d == -len(secret)/2 { // and once through forLog
						out, left := forLog(m, []byte(q))
						var got string
						if err := json.Unmarshal(out, &got); err != nil || left == 0 {
							t.Fatalf("%s: not cut, or not JSON: %v %d", what, err, left)
						}
						check(what, got)
					}
				}
			}
		}
	}
}

// A value the hub resolved is hidden whole in the log, in a message as in
// a note, as it is in MCP traffic (issue 29 item 1): never its first
// letters.
func TestInspectorHidesResolvedValuesWhole(t *testing.T) {
	m := mask.NewMasker()
	m.Add("supersecret-resolved-value")
	in := New(m)
	in.Add(DirRecv, "s1", []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"q":"supersecret-resolved-value"}}}`))
	in.Note("s1", "upstream said supersecret-resolved-value")
	for _, r := range in.Records() {
		text := string(r.Message) + r.Note
		if strings.Contains(text, "supe") || !strings.Contains(text, "******") {
			t.Errorf("the log shows %s", text)
		}
	}
}

// canary is a resolved secret with every character that escapes differently
// in JSON, URLs and HTML, and non-ASCII text (as the hub's leak tests use).
const canary = `c4n&a<r>y"\/+=%-ü秘密-42`
