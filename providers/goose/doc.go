// Package goose is the provider for goose (the CLI and the desktop app, by
// Block and now the Agentic AI Foundation): the extensions map of its YAML
// config, ~/.config/goose/config.yaml ($XDG_CONFIG_HOME/goose on Linux and
// macOS, %APPDATA%\Block\goose\config on Windows, $GOOSE_PATH_ROOT/config
// when set), user level only. Skills are in ~/.agents/skills, the folder of
// the agents convention, and a project's .agents/skills.
//
// An extension that is an MCP server is {type: stdio, cmd, args, envs,
// env_keys} or {type: streamable_http, uri, headers, envs, env_keys}, with
// "enabled" (required), "name", "timeout" (seconds) and "available_tools"
// (an allow list). Goose's own extensions (type builtin, platform, frontend,
// inline_python: developer, memory, …) are not MCP servers chronicle
// describes: they are not read as entries, and an edit refuses to replace or
// remove one. type sse is read, but goose no longer runs it, so chronicle
// does not write it.
//
// Secrets: an extension's process gets the variables its env_keys list,
// each read by goose from its keyring (secrets.yaml) or from the
// environment variable of the same name upper-cased — so a secret passed as
// a whole variable of the same name is env_keys, and a renamed one is an
// error. In uri and headers goose substitutes ${NAME} and $NAME with the
// extension's own envs and env_keys, so chronicle writes ${NAME} there and
// lists NAME in env_keys. args and cmd are never substituted.
//
// The file is edited through package yamlfile: only the entry's lines
// change, every other byte — comments and blank lines around the other
// extensions included — stays as it was. An entry set over a stored one
// keeps the fields chronicle does not own (description, bundled, …), its
// name, and the style and comments of the fields that do not change. Those
// fields are read into Entry.Extra (without goose's defaults: an empty
// description, bundled: null); the declared ones are written as given, and
// those chronicle wrote before and no longer declares (Edit.Drop) go.
package goose
