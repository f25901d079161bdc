package apply_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"testing"

	"github.com/chronicle-dev/chronicle/engine/gitskill/gittest"
)

// TestMain lets the test binary double as the concurrent writer: a separate
// process that rewrites a tool file the way Claude Code rewrites
// ~/.claude.json.
func TestMain(m *testing.M) {
	if path := os.Getenv("CHRONICLE_TEST_WRITER"); path != "" {
		os.Exit(writer(path))
	}
	gittest.Main(m)
}

// writer reads the file fresh, adds one unique key and renames a new file
// over it, every 5 ms (the issue asks for 2 ms or more), until stdin closes; then it prints how many
// keys it wrote.
func writer(path string) int {
	stop := make(chan struct{})
	go func() {
		bufio.NewReader(os.Stdin).ReadString('\n')
		close(stop)
	}()
	fmt.Println("ready")
	n := 0
	for {
		select {
		case <-stop:
			fmt.Println(n)
			return 0
		default:
		}
		b, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			fmt.Fprintln(os.Stderr, "the file does not parse:", err)
			return 1
		}
		doc[fmt.Sprintf("writer-%05d", n)] = n
		out, _ := json.MarshalIndent(doc, "", "  ")
		tmp := path + ".writer"
		info, err := os.Stat(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		// Like Claude Code, keep the file's mode.
		if err := os.WriteFile(tmp, out, info.Mode().Perm()); err != nil || os.Chmod(tmp, info.Mode().Perm()) != nil || os.Rename(tmp, path) != nil {
			fmt.Fprintln(os.Stderr, "write failed")
			return 1
		}
		n++
		time.Sleep(5 * time.Millisecond)
	}
}
