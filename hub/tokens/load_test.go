package tokens

import (
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// probeEnv makes the test binary measure one load of the table and exit,
// so that each measurement starts from a fresh process.
const probeEnv = "CHRONICLE_TOKENS_LOAD_PROBE"

func TestMain(m *testing.M) {
	if os.Getenv(probeEnv) != "" {
		probeLoad()
		return
	}
	os.Exit(m.Run())
}

// A loadProbe is what one fresh process measured of the first count.
type loadProbe struct {
	Millis   float64 `json:"ms"`
	HeapMB   float64 `json:"heapMB"`
	RSSDelta float64 `json:"rssMB"`
}

func probeLoad() {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rss0 := rssMB()
	start := time.Now()
	Count("warm up")
	took := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&after)
	json.NewEncoder(os.Stdout).Encode(loadProbe{
		Millis:   float64(took.Microseconds()) / 1000,
		HeapMB:   float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / (1 << 20),
		RSSDelta: rssMB() - rss0,
	})
}

// rssMB reads the process's resident set size (Linux), or 0.
func rssMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

func runProbe(t testing.TB, env ...string) []byte {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("probe: %v\n%s", err, out)
	}
	return out
}

// TestNothingHeavyAtStart checks that importing the package costs nothing
// at process start: GODEBUG=inittrace=1 reports what each package's init
// allocated, and neither this package nor the codec's may decode the
// table there.
func TestNothingHeavyAtStart(t *testing.T) {
	out := runProbe(t, probeEnv+"=1", "GODEBUG=inittrace=1")
	line := regexp.MustCompile(`init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes`)
	seen := 0
	for _, m := range line.FindAllStringSubmatch(string(out), -1) {
		pkg := m[1]
		if !strings.Contains(pkg, "tiktoken-go") && !strings.Contains(pkg, "regexp2") && !strings.HasSuffix(pkg, "hub/tokens") {
			continue
		}
		seen++
		if n, _ := strconv.Atoi(m[2]); n > 64<<10 {
			t.Errorf("init of %s allocates %d bytes", pkg, n)
		}
	}
	if seen == 0 {
		t.Fatalf("inittrace reported none of the tokenizer's packages:\n%s", out)
	}
}

// BenchmarkLoad reports what the first count costs a fresh process: the
// time to read the o200k table and compile the split pattern, and the heap
// and resident memory it keeps. Each iteration starts a new process.
func BenchmarkLoad(b *testing.B) {
	var sum loadProbe
	for range b.N {
		var p loadProbe
		out := runProbe(b, probeEnv+"=1")
		if err := json.Unmarshal(out[strings.LastIndexByte(strings.TrimSpace(string(out)), '\n')+1:], &p); err != nil {
			b.Fatalf("probe output %q: %v", out, err)
		}
		sum.Millis += p.Millis
		sum.HeapMB += p.HeapMB
		sum.RSSDelta += p.RSSDelta
	}
	n := float64(b.N)
	b.ReportMetric(sum.Millis/n, "ms/load")
	b.ReportMetric(sum.HeapMB/n, "heap-MB")
	b.ReportMetric(sum.RSSDelta/n, "rss-MB")
	b.ReportMetric(0, "ns/op")
}
