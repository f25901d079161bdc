// Package cline is the provider for Cline — its VS Code extension, its
// JetBrains plugin and the Cline CLI, which since mid-2026 share one MCP
// settings file: ~/.cline/data/settings/cline_mcp_settings.json
// ($CLINE_MCP_SETTINGS_PATH, else $CLINE_DATA_DIR/settings, else
// $CLINE_DIR/data/settings), under mcpServers, user level only. Skills are
// in ~/.cline/skills and a project's .cline/skills.
//
// The extension's older file in VS Code's globalStorage
// (saoudrizwan.claude-dev/settings/cline_mcp_settings.json) and
// ~/Documents/Cline/MCP/cline_mcp_settings.json are copied into the shared
// file once by Cline itself and not read after that, so chronicle neither
// reads nor writes them (docs/decisions/0094-tools-of-2026b-paths.md).
//
// An entry is flat — {type, command, args, cwd, env} or {type, url,
// headers}, with "disabled" and "timeout" (seconds) — or, as the CLI writes
// it, nested: {transport: {type, …}, disabled, timeout}. A url without a
// type is the legacy SSE transport, so chronicle always writes "type" for a
// remote entry ("streamableHttp" or "sse"); the legacy "transportType" is
// read and dropped when the entry is rewritten. An entry set over a nested
// one stays nested. "autoApprove" (tools run without asking) is not a tool
// allow list: it is kept as it is, never written. The OAuth state Cline keeps
// in an entry ("oauth") is kept and left out of the entry's canonical form,
// so a token refresh is not drift.
//
// The extension expands ${env:NAME} in every string of an entry; the CLI
// passes the text through as it is (docs/providers.md#cline).
package cline
