//go:build !race

// The race detector slows apply tenfold, beyond the period of the writer
// this test plays: it runs without -race (make test runs it apart).

package apply_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// While another process rewrites ~/.claude.json every few milliseconds,
// apply writes its entries: afterwards every key the writer wrote and every
// entry chronicle wrote is there, over 20 runs.
func TestConcurrentWriterLosesNothing(t *testing.T) {
	const services = 12
	var hcl strings.Builder
	var names []string
	for i := range services {
		fmt.Fprintf(&hcl, "service \"s%d\" {\n  command = \"srv%d\"\n}\n", i, i)
		names = append(names, fmt.Sprintf("%q", fmt.Sprintf("s%d", i)))
	}
	fmt.Fprintf(&hcl, "link \"all\" {\n  tools    = [\"claude\"]\n  services = [%s]\n}\n", strings.Join(names, ", "))
	for run := range 20 {
		m := enginetest.New(t)
		path := m.Write(".claude.json", `{"numStartups": 1, "mcpServers": {}}`)
		cfg := m.Config(hcl.String())
		p := m.Plan(cfg)

		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "CHRONICLE_TEST_WRITER="+path)
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		out := bufio.NewReader(stdout)
		if line, _ := out.ReadString('\n'); line != "ready\n" {
			t.Fatalf("writer: %q", line)
		}
		r, applyErr := m.Apply(p)
		if applyErr != nil && r != nil {
			for _, f := range r.Failed {
				t.Logf("run %d: %s", run, f.Err)
			}
		}
		stdin.Close()
		count, _ := out.ReadString('\n')
		if err := cmd.Wait(); err != nil {
			t.Fatalf("run %d: the writer failed: %v", run, err)
		}
		if applyErr != nil {
			t.Fatalf("run %d: apply: %v", run, applyErr)
		}
		n, _ := strconv.Atoi(strings.TrimSpace(count))
		var doc map[string]any
		if err := json.Unmarshal([]byte(m.Read(path)), &doc); err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		var lost []string
		for i := range n {
			if k := fmt.Sprintf("writer-%05d", i); doc[k] == nil {
				lost = append(lost, k)
			}
		}
		servers, _ := doc["mcpServers"].(map[string]any)
		if len(lost) > 0 || len(servers) != services || doc["numStartups"] == nil {
			t.Fatalf("run %d: %d of the writer's %d keys lost (%v); %d of %d entries", run, len(lost), n, lost, len(servers), services)
		}
		if st := m.State(); len(st.Entries) != services {
			t.Fatalf("run %d: %d entries recorded", run, len(st.Entries))
		}
		os.RemoveAll(filepath.Dir(m.Home))
	}
}
