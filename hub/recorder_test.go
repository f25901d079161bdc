package hub

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
)

// recorderToolsEnv asks the recorder for that many more tools (t0000, …).
const recorderToolsEnv = "RECORDER_TOOLS"

// serveRecorder is a recording upstream speaking JSON-RPC over stdio
// itself, so that what it writes goes out exactly in the order it wrote it
// (mcp-go's server queues notifications on a goroutine of their own). Its
// tools: "progress" sends three progress notifications (or arguments.count)
// under the token it was given, then answers with the _meta it received; "logs" sends a log
// message at every level its client's logging/setLevel allows, lowest first.
func serveRecorder(in io.Reader, out io.Writer) {
	var mu sync.Mutex
	write := func(v any) {
		b, _ := json.Marshal(v)
		mu.Lock()
		defer mu.Unlock()
		_, _ = out.Write(append(b, '\n'))
	}
	notify := func(method string, params any) {
		write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	}
	answer := func(id json.RawMessage, result any) {
		write(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	}
	levels := []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}
	minLevel := 0
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name  string         `json:"name"`
				Level string         `json:"level"`
				Meta  map[string]any `json:"_meta"`
				Args  struct {
					Count int `json:"count"`
				} `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || len(m.ID) == 0 {
			continue // notifications
		}
		switch m.Method {
		case "initialize":
			answer(m.ID, map[string]any{
				"protocolVersion": "2025-11-25",
				"capabilities":    map[string]any{"tools": map[string]any{}, "logging": map[string]any{}},
				"serverInfo":      map[string]any{"name": "recorder", "version": "1"},
			})
		case "tools/list":
			var many []map[string]any
			n, _ := strconv.Atoi(os.Getenv(recorderToolsEnv))
			for i := range n {
				many = append(many, map[string]any{"name": fmt.Sprintf("t%04d", i), "inputSchema": map[string]any{"type": "object"}})
			}
			answer(m.ID, map[string]any{"tools": append(many, []map[string]any{
				{"name": "progress", "description": "Reports progress and the _meta it got.", "inputSchema": map[string]any{"type": "object"}},
				{"name": "logs", "description": "Logs at every level.", "inputSchema": map[string]any{"type": "object"}},
				{"name": "pid", "description": "Answers with its process id.", "inputSchema": map[string]any{"type": "object"}},
			}...)})
		case "logging/setLevel":
			for i, l := range levels {
				if l == m.Params.Level {
					minLevel = i
				}
			}
			answer(m.ID, map[string]any{})
		case "tools/call":
			switch m.Params.Name {
			case "progress":
				n := m.Params.Args.Count
				if n == 0 {
					n = 3
				}
				for i := 1; i <= n; i++ {
					notify("notifications/progress", map[string]any{"progressToken": m.Params.Meta["progressToken"], "progress": i, "total": n})
				}
				meta, _ := json.Marshal(m.Params.Meta)
				answer(m.ID, map[string]any{"content": []map[string]any{{"type": "text", "text": string(meta)}}})
			case "pid":
				answer(m.ID, map[string]any{"content": []map[string]any{{"type": "text", "text": strconv.Itoa(os.Getpid())}}})
			case "logs":
				for _, l := range levels[minLevel:] {
					notify("notifications/message", map[string]any{"level": l, "logger": "recorder", "data": "at " + l})
				}
				answer(m.ID, map[string]any{"content": []map[string]any{{"type": "text", "text": "logged"}}})
			}
		default:
			answer(m.ID, map[string]any{})
		}
	}
}
