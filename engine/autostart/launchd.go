package autostart

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"path/filepath"
	"strings"
)

// syncPlist is the launchd agent that runs the sync every interval and
// once when it is loaded. launchd has no environment file: sync reads the
// token named by --token-env from ~/.chronicle/env itself.
func syncPlist(j Job) []byte {
	var b bytes.Buffer
	plistHead(&b, SyncLabel, j.Binary, j.SyncArgs(), j.Path)
	fmt.Fprintf(&b, "\t<key>StartInterval</key>\n\t<integer>%d</integer>\n", int(j.Every.Seconds()))
	b.WriteString("\t<key>RunAtLoad</key>\n\t<true/>\n")
	plistLog(&b, filepath.Join(j.ChronicleHome, "sync.log"))
	b.WriteString("</dict>\n</plist>\n")
	return b.Bytes()
}

// servePlist keeps the hub running: started when loaded, started again
// when it stops.
func servePlist(j Job) []byte {
	var b bytes.Buffer
	plistHead(&b, ServeLabel, j.Binary, j.ServeArgs(), j.Path)
	b.WriteString("\t<key>RunAtLoad</key>\n\t<true/>\n\t<key>KeepAlive</key>\n\t<true/>\n")
	plistLog(&b, filepath.Join(j.ChronicleHome, "serve.log"))
	b.WriteString("</dict>\n</plist>\n")
	return b.Bytes()
}

func plistHead(b *bytes.Buffer, label, bin string, args []string, path string) {
	b.WriteString(xml.Header)
	b.WriteString(`<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">` + "\n")
	fmt.Fprintf(b, "<!-- %s -->\n", Marker)
	b.WriteString("<plist version=\"1.0\">\n<dict>\n")
	fmt.Fprintf(b, "\t<key>Label</key>\n\t<string>%s</string>\n", xmlText(label))
	b.WriteString("\t<key>ProgramArguments</key>\n\t<array>\n")
	for _, a := range append([]string{bin}, args...) {
		fmt.Fprintf(b, "\t\t<string>%s</string>\n", xmlText(a))
	}
	b.WriteString("\t</array>\n")
	if path != "" {
		fmt.Fprintf(b, "\t<key>EnvironmentVariables</key>\n\t<dict>\n\t\t<key>PATH</key>\n\t\t<string>%s</string>\n\t</dict>\n", xmlText(path))
	}
}

func plistLog(b *bytes.Buffer, log string) {
	fmt.Fprintf(b, "\t<key>StandardOutPath</key>\n\t<string>%s</string>\n", xmlText(log))
	fmt.Fprintf(b, "\t<key>StandardErrorPath</key>\n\t<string>%s</string>\n", xmlText(log))
}

// xmlText escapes s for an XML text node.
func xmlText(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
