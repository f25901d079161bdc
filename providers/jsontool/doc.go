// Package jsontool is the common base of the providers whose tools keep MCP
// servers in a JSON or JSONC file (claude, claude-desktop, cursor, gemini,
// vscode, windsurf, zed, opencode). A Tool implements provider.Provider from
// a few functions a tool package supplies: where the files are, how one entry
// is decoded into the model and encoded back.
//
// Writing an entry that exists already merges: chronicle sets the fields the
// tool's encoder produces and removes the other fields it models (Tool.Owned)
// when the new entry lacks them, except where the old value means the same as
// absence (Tool.Defaults, e.g. "env": {} or windsurf's "disabled": false).
// Every field chronicle does not model (Cursor's envFile, Gemini's trust,
// Zed's settings, …) is kept, in its place; only the fields whose value
// changes are rewritten, so comments inside the entry survive. Such fields
// are read into Entry.Extra; the declared ones (target { extra }) are
// written as given, and those chronicle wrote before and no longer declares
// (Edit.Drop) are removed. A field the tool models (Owned, Reads, Volatile)
// cannot be written through Extra.
//
// A Tool never reads or writes a file itself: Parse turns the bytes the
// engine read into a document, whose Entries and Edit work in memory (see
// package jsonfile); the engine installs the bytes Edit returns. Settings
// kept in other files are read through provider.Files (ParsedJSON).
//
// What a tool cannot express is an error of Render and Edit, never silently
// dropped: a secret the tool has no syntax for, Cwd or tool allow/deny lists
// where the tool has no field for them. Enabled == false where the entry
// cannot hold it (claude, claude-desktop, cursor, gemini, vscode) is an error
// of Edit only, so that entries read back as disabled still Render. Timeout
// is the hub's per-call limit, so it is written only where the tool has a
// field for it.
package jsontool
