package mask

import (
	"io"
)

// A Writer passes everything written through it to W with every registered
// value hidden (as Hide shows it): the backstop that keeps a value the
// Masker knows out of a command's output, whatever printed it. Each Write
// is masked whole; a value split across two writes is not seen, which
// formatted output never does.
type Writer struct {
	W io.Writer
	M *Masker
}

// Write masks p and writes it; it reports len(p) written on success.
func (w *Writer) Write(p []byte) (int, error) {
	set := w.M.load()
	if set == nil {
		return w.W.Write(p)
	}
	s := string(p)
	if masked := set.hide.Replace(s); masked != s {
		if _, err := io.WriteString(w.W, masked); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return w.W.Write(p)
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
