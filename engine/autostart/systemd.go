package autostart

import (
	"fmt"
	"strings"
	"time"
)

// syncService is the oneshot unit the timer starts. The environment file
// is optional (the leading "-"): a public repository needs none.
func syncService(j Job) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", Marker)
	b.WriteString("[Unit]\nDescription=chronicle sync: follow the configuration repository\n")
	b.WriteString("Documentation=https://github.com/chronicle-dev/chronicle#one-repository-several-machines\n\n")
	b.WriteString("[Service]\nType=oneshot\n")
	writeEnvironment(&b, j)
	fmt.Fprintf(&b, "ExecStart=%s\n", execLine(j.Binary, j.SyncArgs()))
	return []byte(b.String())
}

// syncTimer starts the sync two minutes after the user's manager starts
// (a login, or boot with lingering on) and every interval after the last
// run began; a run still going when the next is due is not started twice.
func syncTimer(j Job) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", Marker)
	fmt.Fprintf(&b, "[Unit]\nDescription=Run chronicle sync every %s\n\n", span(j.Every))
	fmt.Fprintf(&b, "[Timer]\nOnStartupSec=2min\nOnUnitActiveSec=%s\nUnit=%s\n\n", span(j.Every), SyncService)
	b.WriteString("[Install]\nWantedBy=timers.target\n")
	return []byte(b.String())
}

// serveService keeps the hub running while the user's manager runs.
func serveService(j Job) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", Marker)
	b.WriteString("[Unit]\nDescription=chronicle serve: the MCP hub\n")
	b.WriteString("Documentation=https://github.com/chronicle-dev/chronicle#the-hub-chronicle-serve\n\n")
	b.WriteString("[Service]\nType=simple\n")
	writeEnvironment(&b, j)
	fmt.Fprintf(&b, "ExecStart=%s\nRestart=on-failure\nRestartSec=5s\n\n", execLine(j.Binary, j.ServeArgs()))
	b.WriteString("[Install]\nWantedBy=default.target\n")
	return []byte(b.String())
}

// writeEnvironment writes the installing shell's PATH and the optional
// secrets file: a token is read from ~/.chronicle/env when the unit runs,
// never written into the unit.
func writeEnvironment(b *strings.Builder, j Job) {
	if j.Path != "" {
		fmt.Fprintf(b, "Environment=%s\n", quoteWord("PATH="+j.Path))
	}
	fmt.Fprintf(b, "EnvironmentFile=-%s\n", escapeSpecifiers(j.EnvFile()))
}

// execLine is a command line as ExecStart reads it: each word quoted when
// it needs to be, with systemd's specifiers (%) and variables ($) escaped
// so that every word reaches chronicle as written.
func execLine(bin string, args []string) string {
	words := make([]string, 0, 1+len(args))
	for _, w := range append([]string{bin}, args...) {
		words = append(words, strings.ReplaceAll(quoteWord(w), "$", "$$"))
	}
	return strings.Join(words, " ")
}

// quoteWord returns s as one word of a unit file's value: as is when it
// holds nothing systemd would split or interpret, else in double quotes
// with backslashes and quotes escaped; % is always doubled.
func quoteWord(s string) string {
	s = escapeSpecifiers(s)
	if s != "" && !strings.ContainsAny(s, " \t\"'\\;") {
		return s
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

func escapeSpecifiers(s string) string { return strings.ReplaceAll(s, "%", "%%") }

// span writes an interval as systemd's time spans read it: whole hours as
// "1h", whole minutes as "15min", else seconds.
func span(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%dmin", d/time.Minute)
	default:
		return fmt.Sprintf("%ds", (d+time.Second-1)/time.Second)
	}
}
