package inspect

import (
	"encoding/json"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/internal/leaktest"
)

// logInspector is an inspector holding what a session's hooks keep for
// 149 small calls and one whose result is size bytes.
func logInspector(tb testing.TB, size int) *Inspector {
	tb.Helper()
	in := New(&mask.Masker{})
	in.masker.Add(leaktest.BenchSecret)
	for i := range 150 {
		var req mcp.CallToolRequest
		req.Params.Name = "files__read"
		req.Params.Arguments = map[string]any{"path": "/var/log/app.log", "n": i}
		in.AddLazy(DirRecv, "s1", func() []byte {
			return mustJSON(map[string]any{"id": i, "method": "tools/call", "params": req.Params})
		})
		res := mcp.NewToolResultText("ok " + strconv.Itoa(i))
		if i == 100 {
			res = mcp.NewToolResultText(leaktest.BigText(size, leaktest.BenchSecret+" "+leaktest.ShapedToken))
		}
		in.AddLazy(DirSend, "s1", func() []byte { return mustJSON(map[string]any{"id": i, "result": res}) })
	}
	return in
}

// BenchmarkLogReadAfterBigResult is GET /api/log with a 60 MB tool result
// among the 300 records kept, once they are sealed (issue 20: ≤ 50 ms).
func BenchmarkLogReadAfterBigResult(b *testing.B) {
	in := logInspector(b, 60<<20)
	in.Records() // sealed
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		WriteRecords(w, in.Records())
		if w.Code != 200 || w.Body.Len() == 0 {
			b.Fatalf("%d", w.Code)
		}
		b.ReportMetric(float64(w.Body.Len()), "bytes")
	}
}

// BenchmarkLogFirstReadAfterBigResult is the first GET /api/log after a
// 60 MB tool result: it seals the 300 records, the big one among them.
func BenchmarkLogFirstReadAfterBigResult(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		in := logInspector(b, 60<<20)
		b.StartTimer()
		w := httptest.NewRecorder()
		WriteRecords(w, in.Records())
		if w.Code != 200 || w.Body.Len() > 300*RecordLimit {
			b.Fatalf("%d, %d bytes", w.Code, w.Body.Len())
		}
	}
}

// BenchmarkSealBigResult is what a 60 MB tool result costs the first read
// of the log after it, once: encoding it, cutting it down and masking it.
func BenchmarkSealBigResult(b *testing.B) {
	in := New(&mask.Masker{})
	in.masker.Add(leaktest.BenchSecret)
	res := mcp.NewToolResultText(leaktest.BigText(60<<20, leaktest.BenchSecret+" "+leaktest.ShapedToken))
	b.ReportAllocs()
	for b.Loop() {
		var r Record
		in.seal(&r, func() []byte { return mustJSON(map[string]any{"id": 1, "result": res}) })
		if r.Elided == 0 {
			b.Fatal("nothing was left out")
		}
	}
}

// BenchmarkSealCall is sealing the two records of a small tools/call: what
// the first read of the log pays for each call since the last read.
func BenchmarkSealCall(b *testing.B) {
	in := New(&mask.Masker{})
	in.masker.Add(leaktest.BenchSecret)
	var req mcp.CallToolRequest
	req.Params.Name = "bench__echo"
	req.Params.Arguments = map[string]any{"text": "ping"}
	res := mcp.NewToolResultText("bench:ping")
	b.ReportAllocs()
	for b.Loop() {
		var recv, send Record
		in.seal(&recv, func() []byte {
			return mustJSON(map[string]any{"id": 7, "method": "tools/call", "params": req.Params})
		})
		in.seal(&send, func() []byte { return mustJSON(map[string]any{"id": 7, "result": res}) })
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
