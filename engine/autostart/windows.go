package autostart

import (
	"bytes"
	"fmt"
	"strings"
	"time"
	"unicode/utf16"
)

// syncTask is the Task Scheduler task that runs the sync every interval
// while the user is logged on, in UTF-16 as schtasks /XML reads it. A run
// still going when the next is due is not started twice (IgnoreNew). Task
// Scheduler has no environment of its own to set: the task runs with the
// user's, and sync reads the token from ~/.chronicle/env.
func syncTask(j Job) []byte {
	trigger := fmt.Sprintf(`    <TimeTrigger>
      <Repetition>
        <Interval>%s</Interval>
        <StopAtDurationEnd>false</StopAtDurationEnd>
      </Repetition>
      <StartBoundary>2026-01-01T00:00:00</StartBoundary>
      <Enabled>true</Enabled>
    </TimeTrigger>
`, isoDuration(j.Every))
	return task("Runs chronicle sync every "+Text(j.Every)+".", trigger, "PT1H", j.Binary, j.SyncArgs())
}

// serveTask starts the hub when the user logs on, with no time limit.
func serveTask(j Job) []byte {
	trigger := "    <LogonTrigger>\n      <Enabled>true</Enabled>\n    </LogonTrigger>\n"
	return task("Runs chronicle serve, the MCP hub.", trigger, "PT0S", j.Binary, j.ServeArgs())
}

func task(description, trigger, limit, bin string, args []string) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-16"?>` + "\n")
	fmt.Fprintf(&b, "<!-- %s -->\n", Marker)
	b.WriteString(`<Task version="1.2" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task">` + "\n")
	fmt.Fprintf(&b, "  <RegistrationInfo>\n    <Description>%s</Description>\n  </RegistrationInfo>\n", xmlText(description))
	b.WriteString("  <Triggers>\n" + trigger + "  </Triggers>\n")
	b.WriteString("  <Principals>\n    <Principal id=\"Author\">\n      <LogonType>InteractiveToken</LogonType>\n      <RunLevel>LeastPrivilege</RunLevel>\n    </Principal>\n  </Principals>\n")
	fmt.Fprintf(&b, `  <Settings>
    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>
    <DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>
    <StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>
    <StartWhenAvailable>true</StartWhenAvailable>
    <ExecutionTimeLimit>%s</ExecutionTimeLimit>
    <Enabled>true</Enabled>
  </Settings>
`, limit)
	fmt.Fprintf(&b, "  <Actions Context=\"Author\">\n    <Exec>\n      <Command>%s</Command>\n      <Arguments>%s</Arguments>\n    </Exec>\n  </Actions>\n</Task>\n",
		xmlText(bin), xmlText(windowsArgs(args)))
	return utf16LE(b.String())
}

// windowsArgs joins arguments as a Windows program's command line reads
// them: a word with a space or a quote in double quotes.
func windowsArgs(args []string) string {
	words := make([]string, len(args))
	for i, a := range args {
		if a != "" && !strings.ContainsAny(a, " \t\"") {
			words[i] = a
			continue
		}
		words[i] = `"` + strings.ReplaceAll(a, `"`, `\"`) + `"`
	}
	return strings.Join(words, " ")
}

// isoDuration writes d as an XML schema duration (PT15M, PT1H, PT90S).
func isoDuration(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return fmt.Sprintf("PT%dH", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("PT%dM", d/time.Minute)
	default:
		return fmt.Sprintf("PT%dS", (d+time.Second-1)/time.Second)
	}
}

// utf16LE encodes s as UTF-16, little endian, with a byte order mark, the
// encoding the XML declaration names.
func utf16LE(s string) []byte {
	var b bytes.Buffer
	b.Write([]byte{0xff, 0xfe})
	for _, u := range utf16.Encode([]rune(s)) {
		b.WriteByte(byte(u))
		b.WriteByte(byte(u >> 8))
	}
	return b.Bytes()
}
