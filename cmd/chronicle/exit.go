package main

import "fmt"

// Exit codes shared by every command (SPEC §11).
const (
	exitOK      = 0
	exitError   = 1
	exitChanges = 2 // plan --detailed-exitcode found changes
	exitFormat  = 3 // fmt --check found files to format
)

// An exitError ends a command with a code after its output was written.
type exitCodeError struct {
	code int
	msg  string // printed as "Error: msg" when not empty
}

func (e *exitCodeError) Error() string { return fmt.Sprintf("exit %d: %s", e.code, e.msg) }

// exitWith ends the command with code, printing nothing more.
func exitWith(code int) error { return &exitCodeError{code: code} }

// failf ends the command with exit code 1 and an error message.
func failf(format string, args ...any) error {
	return &exitCodeError{code: exitError, msg: fmt.Sprintf(format, args...)}
}
