package mask

// A maskedError shows an error's text with the registered values replaced;
// errors.Is and errors.As still see the original.
type maskedError struct {
	text string
	err  error
}

func (e *maskedError) Error() string { return e.text }
func (e *maskedError) Unwrap() error { return e.err }

// Err returns err with every registered value in its text replaced (as
// Literal does), for an error that may reach an MCP client, where only
// registered values are masked; errors.Is and errors.As still see err. An
// error whose text holds no registered value is returned as it is.
func (m *Masker) Err(err error) error {
	if err == nil {
		return nil
	}
	text := err.Error()
	if masked := m.Literal(text); masked != text {
		return &maskedError{text: masked, err: err}
	}
	return err
}
