package mask

import (
	"io"
)

// A Writer passes everything written through it to W masked as Masker.Text
// masks text for a person: registered values, credential-shaped tokens and
// URL credentials. It is the one masker on every command's output, whatever
// printed it — a diagnostic, a tool file's parse error, a saved plan shown
// as JSON. Each Write is masked whole; a value split across two writes is
// not seen, which formatted output never does.
type Writer struct {
	W io.Writer
	M *Masker
}

// Write masks p and writes it; it reports len(p) written on success.
func (w *Writer) Write(p []byte) (int, error) {
	return writeMasked(w.W, p, w.M.Text)
}

// A DataWriter passes bytes that are data rather than text for a person —
// MCP traffic on a stdio transport, a formatted configuration — to W with
// only the registered values hidden (as Hidden does): shape rules there
// could corrupt a tool's data.
type DataWriter struct {
	W io.Writer
	M *Masker
}

// Write masks p and writes it; it reports len(p) written on success.
func (w *DataWriter) Write(p []byte) (int, error) {
	return writeMasked(w.W, p, w.M.Hidden)
}

func writeMasked(w io.Writer, p []byte, mask func(string) string) (int, error) {
	s := string(p)
	masked := mask(s)
	if masked == s {
		return w.Write(p)
	}
	if _, err := io.WriteString(w, masked); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Hidden replaces the registered values in s with their Hide form and
// applies no shape rule: for text whose other long strings (hashes, ids)
// must stay as they are.
func (m *Masker) Hidden(s string) string {
	if set := m.load(); set != nil {
		return set.hide.Replace(s)
	}
	return s
}
