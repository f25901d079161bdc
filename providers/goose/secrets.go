package goose

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
)

// disallowedEnv are the variables goose refuses to set for an extension
// (Envs::DISALLOWED_KEYS): written, they would be skipped with a warning.
var disallowedEnv = []string{"PATH", "PATHEXT", "SYSTEMROOT", "WINDIR", "LD_LIBRARY_PATH", "LD_PRELOAD",
	"LD_AUDIT", "LD_DEBUG", "LD_BIND_NOW", "LD_ASSUME_KERNEL", "DYLD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES",
	"DYLD_FRAMEWORK_PATH", "PYTHONPATH", "PYTHONHOME", "NODE_OPTIONS", "RUBYOPT", "GEM_PATH", "GEM_HOME",
	"CLASSPATH", "GO111MODULE", "GOROOT", "APPINIT_DLLS", "SESSIONNAME", "COMSPEC", "TEMP", "TMP",
	"LOCALAPPDATA", "USERPROFILE", "HOMEDRIVE", "HOMEPATH"}

// stdioFields writes an stdio entry's command, arguments and environment:
// literal values as envs; a secret, whole and from the variable of the same
// name (upper-cased), as env_keys. goose substitutes nothing in cmd and args.
func stdioFields(e provider.Entry) (cmd string, args []string, envs map[string]string, keys []string, err error) {
	if e.Command == "" {
		return "", nil, nil, nil, fmt.Errorf("a stdio server needs a command")
	}
	args = []string{}
	for i, a := range e.Args {
		s, ok := a.Literal()
		if !ok {
			return "", nil, nil, nil, fmt.Errorf("args[%d]: goose substitutes no variables in args, so %s cannot be written there: pass it in env, or link the chronicle hub", i, a.HCL())
		}
		args = append(args, s)
	}
	for _, k := range sortedKeys(e.Env) {
		v := e.Env[k]
		if slices.Contains(disallowedEnv, strings.ToUpper(k)) {
			return "", nil, nil, nil, fmt.Errorf("env.%s: goose refuses to set %s for an extension", k, k)
		}
		if s, ok := v.Literal(); ok {
			if envs == nil {
				envs = map[string]string{}
			}
			envs[k] = s
			continue
		}
		ref, whole := v.OnlyRef()
		switch {
		case !whole || ref.Kind != secret.KindEnv:
			return "", nil, nil, nil, fmt.Errorf("env.%s: goose passes a secret to an extension only whole, from an environment variable (env_keys), so %s cannot be written there", k, v.HCL())
		case strings.ToUpper(k) != ref.Name:
			return "", nil, nil, nil, fmt.Errorf("env.%s: goose reads the value of env_keys entry %s from the variable %s, so %s cannot be written there; name the variable %s", k, k, strings.ToUpper(k), v.HCL(), strings.ToUpper(k))
		}
		keys = append(keys, k)
	}
	return e.Command, args, envs, keys, nil
}

// remoteFields writes a remote entry's uri and headers with each secret as
// ${NAME}, and lists the names in env_keys, which is what goose substitutes
// there.
func remoteFields(e provider.Entry) (uri string, headers map[string]string, keys []string, err error) {
	if e.URL.IsZero() {
		return "", nil, nil, fmt.Errorf("a remote server needs a url")
	}
	values := map[string]secret.Value{"uri": e.URL}
	for k, v := range e.Headers {
		values["headers."+k] = v
	}
	for _, where := range sortedKeys(values) {
		for _, ref := range values[where].Refs() {
			switch {
			case ref.Kind != secret.KindEnv:
				return "", nil, nil, fmt.Errorf("%s: goose cannot read a secret from a file, so %s cannot be written there: use secret(\"env:NAME\")", where, ref.HCL())
			case strings.ToUpper(ref.Name) != ref.Name:
				return "", nil, nil, fmt.Errorf("%s: goose reads an env_keys entry from the upper-cased variable, so %s cannot be written there; name the variable %s", where, ref.HCL(), strings.ToUpper(ref.Name))
			}
			if !slices.Contains(keys, ref.Name) {
				keys = append(keys, ref.Name)
			}
		}
	}
	slices.Sort(keys)
	known := func(n string) bool { return slices.Contains(keys, n) }
	render := func(where string, v secret.Value) (string, error) {
		s, err := refsyntax.Goose.RenderKnown(v, known)
		if err != nil {
			return "", fmt.Errorf("%s: %w", where, err)
		}
		return s, nil
	}
	if uri, err = render("uri", e.URL); err != nil {
		return "", nil, nil, err
	}
	for _, k := range sortedKeys(e.Headers) {
		s, err := render("headers."+k, e.Headers[k])
		if err != nil {
			return "", nil, nil, err
		}
		if headers == nil {
			headers = map[string]string{}
		}
		headers[k] = s
	}
	return uri, headers, keys, nil
}
