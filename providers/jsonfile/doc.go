// Package jsonfile reads and edits the JSON and JSONC (JSON with comments and
// trailing commas) files that hold the JSON tools' MCP servers.
//
// A Document gives the members of the object at a key path, such as
// ["mcpServers"] or ["projects", "/abs/path", "mcpServers"], as standard JSON.
// Update sets or removes one member of such an object by splicing bytes: every
// other byte of the file — unrelated keys, key order, indentation, comments,
// trailing commas — stays as it was. Parsing uses github.com/tailscale/hujson,
// which keeps the position of every value.
//
// Layout rules, so that adding an entry and removing it again gives back the
// original file byte for byte:
//
//   - A new member is appended after the last member of its object, at that
//     member's indentation (a new object's members are indented one unit more
//     than the line that opens it; the unit is the file's own, two spaces when
//     the file shows none). A comma is added after the previous member, or
//     after the new one when the object already ends with a trailing comma.
//   - Objects missing along the key path are created as nested members of the
//     deepest one that exists. When a removal empties the server map and the
//     map is the last member of its parent and holds no comment, the map is removed too, and so on
//     up the key path (never the document itself). An empty server map that
//     the file had before is therefore kept only when it is not its parent's
//     last member; otherwise it goes when the last entry added to it goes.
//   - An object emptied by a removal is written "{}". An empty object that
//     was written "{ }" or across lines before an entry was added comes back
//     as "{}".
//   - Comments inside or next to a removed member's own lines stay where they
//     are; the member's lines go.
//   - A missing file is created as "{}\n" plus the new member; removing the
//     last entry leaves the file holding "{}\n" rather than deleting it.
//
// Update re-reads the file immediately before writing, writes atomically
// through engine/safefile, parses the result and checks that it differs from
// the previous content only by the intended change; otherwise the previous
// bytes are put back.
package jsonfile
