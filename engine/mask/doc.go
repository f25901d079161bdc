// Package mask hides secret-looking values before anything is shown: plan and
// scan output, JSON lines, logs and the hub's inspector.
//
// A value is masked as its first four characters followed by "…******". What
// counts as secret-looking is SPEC §6: a value under a key or header name that
// contains token, key, secret, password, passwd, auth or credential; a value
// shaped like a known token (sk-, ghp_, xox, lin_api_, JWTs, long hex or
// base64); and the password part of a URL's userinfo. References to a tool's
// environment (${NAME}, ${env:NAME}, {env:NAME}, $NAME) and chronicle's own
// secret("env:NAME") are not secrets and stay readable.
package mask
