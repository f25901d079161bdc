// Package config owns chronicle's configuration language: the HCL blocks of
// SPEC §3, the functions available in them, variables and locals, and the
// validation that turns an author's mistakes into diagnostics with a source
// range.
//
// Load reads every *.hcl file of a directory and returns a Config alongside
// hcl.Diagnostics; a Config is returned even when there are errors so callers
// can show everything at once. Secret references are kept as secret.Value
// templates and never resolved here.
package config
