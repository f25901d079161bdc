package secret

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A Resolver reads secrets. Env is consulted first, then the dotenv file at
// EnvFile (~/.chronicle/env), which serves clients started from a desktop
// where shell variables are missing.
type Resolver struct {
	Env     func(string) (string, bool)
	EnvFile string
	// Home expands a leading ~ in file: references.
	Home string
}

// Resolve returns the value with every reference replaced by its content.
// The result must stay in memory: never print, log or store it.
func (r Resolver) Resolve(v Value) (string, error) {
	return v.Render(func(s string) string { return s }, r.ref)
}

func (r Resolver) ref(ref Ref) (string, error) {
	switch ref.Kind {
	case KindEnv:
		if r.Env != nil {
			if s, ok := r.Env(ref.Name); ok {
				return s, nil
			}
		}
		if r.EnvFile != "" {
			vals, err := ReadEnvFile(r.EnvFile)
			if err != nil {
				return "", err
			}
			if s, ok := vals[ref.Name]; ok {
				return s, nil
			}
		}
		return "", fmt.Errorf("secret %s: environment variable %s is not set (nor in %s)", ref.HCL(), ref.Name, r.EnvFile)
	case KindFile:
		path := ref.Name
		if path == "~" || strings.HasPrefix(path, "~/") {
			path = filepath.Join(r.Home, path[1:])
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return "", fmt.Errorf("secret %s: %w", ref.HCL(), err)
		}
		return strings.TrimRight(string(b), "\r\n"), nil
	}
	return "", fmt.Errorf("secret %s: unknown kind", ref.HCL())
}

// IsSet reports whether the environment variable name is set to a value
// that is not empty, in Env or in the dotenv file at EnvFile, without the
// value leaving this call: a tool given an empty token has none. A file
// that cannot be read holds nothing here; Resolve reports why.
func (r Resolver) IsSet(name string) bool {
	if r.Env != nil {
		if v, ok := r.Env(name); ok && v != "" {
			return true
		}
	}
	if r.EnvFile == "" {
		return false
	}
	vals, err := ReadEnvFile(r.EnvFile)
	if err != nil {
		return false
	}
	return vals[name] != ""
}
