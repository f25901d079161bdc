// Package autostart owns what runs chronicle with nobody watching: the
// files that make the operating system's own scheduler run chronicle sync
// every interval (and, when asked, keep chronicle serve running), rendered
// from one Job — systemd user units on Linux, launchd agents on macOS, a
// Task Scheduler task on Windows — and the record of what was installed,
// ~/.chronicle/autostart.json, from which status and uninstall work.
//
// It renders and writes files; running systemctl, launchctl or schtasks is
// the caller's (cmd), which may find no service manager answering.
package autostart
