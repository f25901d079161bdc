// Package zed is the provider for Zed: settings.json in ~/.config/zed
// (honouring $XDG_CONFIG_HOME; the same folder on macOS) and a project's
// .zed/settings.json, under "context_servers". The files are JSONC holding
// every editor setting: comments and trailing commas survive every write.
//
// Zed reads an untagged stdio form {command, args, env} and http form
// {url, headers}, and the legacy tagged forms: "source": "custom" with
// command as a string or as {path, args, env}, and "source": "extension" for
// servers an extension provides — read with transport "extension", never
// written. "enabled" is the entry's switch. Zed expands no references: every
// secret is an error of Render and Edit. chronicle writes the untagged form;
// replacing a legacy custom entry keeps its "source" and writes command as a
// string. Zed has no skills folder.
package zed
