package codex

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/providers/tomlfile"
)

// Codex turns bearer_token_env_var into this header.
const (
	authorization = "Authorization"
	bearerPrefix  = "Bearer "
)

// literal returns v's text, or an error when v holds a secret: Codex has no
// reference syntax in that position.
func literal(where string, v secret.Value) (string, error) {
	s, ok := v.Literal()
	if !ok {
		return "", fmt.Errorf("%s = %s: codex cannot reference a secret in %s; only env values and headers can be secrets", where, v, where)
	}
	return s, nil
}

func literals(where string, vs []secret.Value) ([]string, error) {
	if vs == nil {
		return nil, nil
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		s, err := literal(where, v)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// onlyEnvRef returns the variable when v is exactly one env: reference, and
// an error when it holds any other secret.
func onlyEnvRef(where string, v secret.Value) (name string, ok bool, err error) {
	if !v.HasRefs() {
		return "", false, nil
	}
	ref, whole := v.OnlyRef()
	switch {
	case whole && ref.Kind == secret.KindEnv:
		return ref.Name, true, nil
	case whole:
		return "", false, fmt.Errorf("%s = %s: codex cannot read a %s: reference; use an env: reference", where, v, ref.Kind)
	}
	return "", false, fmt.Errorf("%s = %s: codex takes a secret here only as the whole value", where, v)
}

// renderEnv writes env as env (literal values) and env_vars (variables
// passed through under their own name).
func renderEnv(env map[string]secret.Value) (tomlfile.Table, error) {
	plain := map[string]string{}
	var passed []string
	for _, k := range slices.Sorted(maps.Keys(env)) {
		v := env[k]
		name, isRef, err := onlyEnvRef("env."+k, v)
		switch {
		case err != nil:
			return nil, err
		case isRef && name != k:
			return nil, fmt.Errorf("env.%s = %s: codex passes a variable only under its own name (env_vars = [%q]); name the key %s or the variable %s", k, v, name, name, k)
		case isRef:
			passed = append(passed, k)
		default:
			plain[k], _ = v.Literal()
		}
	}
	var t tomlfile.Table
	if len(plain) > 0 {
		t = append(t, tomlfile.Field{Key: "env", Value: plain})
	}
	if len(passed) > 0 {
		t = append(t, tomlfile.Field{Key: "env_vars", Value: passed})
	}
	return t, nil
}

// renderHeaders writes "Authorization: Bearer <secret>" as
// bearer_token_env_var, another header that is wholly a secret as
// env_http_headers, and literal headers as http_headers.
func renderHeaders(headers map[string]secret.Value) (tomlfile.Table, error) {
	var bearer string
	plain := map[string]string{}
	fromEnv := map[string]string{}
	for _, k := range slices.Sorted(maps.Keys(headers)) {
		v := headers[k]
		if name, ok := bearerVar(k, v); ok && bearer == "" {
			bearer = name
			continue
		}
		name, isRef, err := onlyEnvRef("headers."+k, v)
		switch {
		case err != nil:
			return nil, err
		case isRef:
			fromEnv[k] = name
		default:
			plain[k], _ = v.Literal()
		}
	}
	var t tomlfile.Table
	if bearer != "" {
		t = append(t, tomlfile.Field{Key: "bearer_token_env_var", Value: bearer})
	}
	if len(plain) > 0 {
		t = append(t, tomlfile.Field{Key: "http_headers", Value: plain})
	}
	if len(fromEnv) > 0 {
		t = append(t, tomlfile.Field{Key: "env_http_headers", Value: fromEnv})
	}
	return t, nil
}

// bearerVar recognises Authorization = "Bearer ${secret("env:NAME")}".
func bearerVar(header string, v secret.Value) (string, bool) {
	parts := v.Parts()
	if !strings.EqualFold(header, authorization) || len(parts) != 2 ||
		parts[0].Ref != nil || parts[0].Text != bearerPrefix ||
		parts[1].Ref == nil || parts[1].Ref.Kind != secret.KindEnv {
		return "", false
	}
	return parts[1].Ref.Name, true
}
