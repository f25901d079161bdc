// Command parsefloor measures the floor HCL puts under a plan: the time
// hclsyntax.ParseConfig takes to parse a configuration once, in a fresh
// process, as `chronicle plan` does (bench/README.md, "Issue 28: the
// floor"). Each run re-executes this program for one parse of one file,
// with the garbage collector off (the most favourable case: chronicle's
// one-shot commands run it under a soft limit instead), and reports the
// parse alone; the minimum and the median over the runs are the figures.
//
//	go run ./bench/parsefloor -runs 15 FILE...
//
// A plan cannot finish before its configuration is parsed, and nothing
// may parse it earlier (no work in init, no cached decoded
// configuration), so a plan's wall time is at least `chronicle version`'s
// start-up plus this figure.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// childEnv marks the re-executed process that parses one file.
const childEnv = "PARSEFLOOR_FILE"

func main() {
	if f := os.Getenv(childEnv); f != "" {
		os.Exit(child(f))
	}
	runs := flag.Int("runs", 15, "fresh processes per file")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: parsefloor [-runs N] FILE...")
		os.Exit(2)
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%-50s %10s %6s %12s %12s\n", "file", "bytes", "runs", "min ms", "median ms")
	for _, f := range flag.Args() {
		info, err := os.Stat(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		var ms []float64
		for range *runs {
			cmd := exec.Command(self)
			cmd.Env = append(os.Environ(), childEnv+"="+f, "GOGC=off")
			cmd.Stderr = os.Stderr
			out, err := cmd.Output()
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n", f, err)
				os.Exit(1)
			}
			ns, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n", f, err)
				os.Exit(1)
			}
			ms = append(ms, float64(ns)/1e6)
		}
		slices.Sort(ms)
		fmt.Printf("%-50s %10d %6d %12.2f %12.2f\n", f, info.Size(), len(ms), ms[0], ms[len(ms)/2])
	}
}

// child parses f once and prints the nanoseconds the parse took; the
// read is not counted.
func child(f string) int {
	src, err := os.ReadFile(f)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	start := time.Now()
	_, diags := hclsyntax.ParseConfig(src, f, hcl.InitialPos)
	took := time.Since(start)
	if diags.HasErrors() {
		fmt.Fprintln(os.Stderr, diags.Error())
		return 1
	}
	fmt.Println(took.Nanoseconds())
	return 0
}
