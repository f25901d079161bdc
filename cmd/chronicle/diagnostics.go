package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/hashicorp/hcl/v2"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/plan"
)

// A diagReport renders configuration diagnostics for people (with source
// lines, via hcl's writer) or as JSON. Both forms are masked: a diagnostic
// never shows a secret, even one written in plain text in the file.
type diagReport struct {
	diags  hcl.Diagnostics
	files  map[string]*hcl.File
	masker *mask.Masker
}

func (r *diagReport) HasErrors() bool { return r.diags.HasErrors() }

// firstError is the first error in one line, FILE:LINE: summary, for
// what keeps a line (the sync status file); "" when there is none.
func (r *diagReport) firstError() string {
	errs, _ := r.counts()
	for _, d := range r.safe() {
		if d.Severity != hcl.DiagError {
			continue
		}
		line := d.Summary
		if d.Subject != nil {
			line = fmt.Sprintf("%s:%d: %s", d.Subject.Filename, d.Subject.Start.Line, d.Summary)
		}
		if errs > 1 {
			line += fmt.Sprintf(" (and %d more)", errs-1)
		}
		return line
	}
	return ""
}

// warnings returns the warnings alone.
func (r *diagReport) warnings() hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range r.diags {
		if d.Severity == hcl.DiagWarning {
			out = append(out, d)
		}
	}
	return out
}

// counts returns the number of errors and warnings.
func (r *diagReport) counts() (errs, warns int) {
	for _, d := range r.diags {
		if d.Severity == hcl.DiagError {
			errs++
		} else {
			warns++
		}
	}
	return errs, warns
}

// safe returns the diagnostics without the expression values that hcl's
// writer would otherwise print ("var.x is …"), with masked texts.
func (r *diagReport) safe() hcl.Diagnostics {
	out := make(hcl.Diagnostics, 0, len(r.diags))
	for _, d := range r.diags {
		c := *d
		c.Expression, c.EvalContext = nil, nil
		c.Summary = r.masker.Text(c.Summary)
		c.Detail = r.masker.Text(c.Detail)
		out = append(out, &c)
	}
	return out
}

// writeWarnings prints the warnings alone, as validate shows them.
func (r *diagReport) writeWarnings(w io.Writer, color bool) error {
	only := &diagReport{diags: r.warnings(), files: r.files, masker: r.masker}
	return only.writeText(w, color)
}

// maxShownDiagnostics is how many diagnostics the text form prints: past
// that, more are rarely read, and a file that is not a configuration at all
// could otherwise fill a terminal with thousands.
const maxShownDiagnostics = 50

// writeText prints the diagnostics with their source snippets, at most
// maxShownDiagnostics of them.
func (r *diagReport) writeText(w io.Writer, color bool) error {
	masked := make(map[string]*hcl.File, len(r.files))
	for name, f := range r.files {
		masked[name] = &hcl.File{Bytes: []byte(mask.Source(string(f.Bytes), r.masker.Literals()))}
	}
	dw := hcl.NewDiagnosticTextWriter(w, masked, 100, color)
	diags := r.safe()
	if len(diags) <= maxShownDiagnostics {
		return dw.WriteDiagnostics(diags)
	}
	if err := dw.WriteDiagnostics(diags[:maxShownDiagnostics]); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "… and %d more diagnostics, not shown: fix these first (validate --json lists them all).\n", len(diags)-maxShownDiagnostics)
	return err
}

// A jsonPos is a position in a file.
type jsonPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// A jsonRange is where a diagnostic points.
type jsonRange struct {
	Filename string  `json:"filename"`
	Start    jsonPos `json:"start"`
	End      jsonPos `json:"end"`
}

// A jsonDiagnostic is the JSON form of one diagnostic (SPEC §6).
type jsonDiagnostic struct {
	Type     string     `json:"type,omitempty"`
	Severity string     `json:"severity"`
	Summary  string     `json:"summary"`
	Detail   string     `json:"detail,omitempty"`
	Range    *jsonRange `json:"range,omitempty"`
}

func (r *diagReport) jsonDiagnostics() []jsonDiagnostic {
	out := []jsonDiagnostic{}
	for _, d := range r.safe() {
		j := jsonDiagnostic{Severity: "error", Summary: d.Summary, Detail: d.Detail}
		if d.Severity == hcl.DiagWarning {
			j.Severity = "warning"
		}
		if d.Subject != nil {
			s := d.Subject
			j.Range = &jsonRange{
				Filename: s.Filename,
				Start:    jsonPos{s.Start.Line, s.Start.Column, s.Start.Byte},
				End:      jsonPos{s.End.Line, s.End.Column, s.End.Byte},
			}
		}
		out = append(out, j)
	}
	return out
}

// writeDiagnosticsJSON writes a configuration's diagnostics as plan --json
// lines: the version line, one diagnostic line each, and an empty summary.
func writeDiagnosticsJSON(w io.Writer, r *diagReport) error {
	lines := []any{jsonVersionLine{"version", plan.FormatVersion, version}}
	for _, d := range r.jsonDiagnostics() {
		d.Type = "diagnostic"
		lines = append(lines, d)
	}
	lines = append(lines, jsonSummaryLine{Type: "summary"})
	for _, l := range lines {
		if err := writeJSONLine(w, l); err != nil {
			return err
		}
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func writeJSONLine(w io.Writer, v any) error {
	return json.NewEncoder(w).Encode(v)
}
