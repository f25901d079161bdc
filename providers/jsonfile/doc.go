// Package jsonfile reads and edits the JSON and JSONC (JSON with comments and
// trailing commas) files that hold the JSON tools' MCP servers.
//
// A Document gives the members of the object at a key path, such as
// ["mcpServers"] or ["projects", "/abs/path", "mcpServers"], decoded from
// standard JSON. Edit sets or removes any number of members of such objects
// in one pass over one parse: every other byte of the file — unrelated keys,
// key order, indentation, comments, trailing commas — stays as it was.
// Parsing uses github.com/tailscale/hujson, which keeps every comment and
// blank beside the value it precedes or follows, so an edit moves those
// exactly and packs the document once. Nothing here reads or writes a file:
// the engine reads the bytes, and installs the bytes Edit returns.
//
// AddString and RemoveString add or remove one string of a list, such as
// a rule of Devin's ["permissions", "deny"], which the user shares with
// chronicle (docs/decisions/0151-devin-deny-lists-through-the-hub.md):
// every other element keeps its bytes, comments and trailing comma. A new
// element follows the rules of a new member below; a missing list is
// created as a new member holding it; a list emptied by a removal is
// written "[]", and goes as an emptied server map goes. A string held
// twice in the list is an error, as a name held twice is.
//
// ParseOnly parses a large file only where a provider reads it (Claude's
// ~/.claude.json: the servers and the disabled lists, not the history of
// every project). A streaming decoder (jsontext) reads the whole file and
// keeps those values, each other object or array as its own bytes (a Raw);
// the tree an edit needs is built on the first edit: gjson finds the
// objects and arrays outside those key paths, and hujson parses the rest,
// in which each of them stands as its bytes, written back unchanged by the
// edit and compared byte for byte by its verification. A JSONC file is
// parsed as that tree at once (docs/decisions/0062-large-tool-files.md,
// 0140-plan-at-any-scale.md). Names streams the member names of one object
// out of a reader, keeping nothing else.
//
// Layout rules, so that adding an entry and removing it again gives back the
// original file byte for byte:
//
//   - A new member is appended after the last member of its object, at that
//     member's indentation (inline, on the same line, before any comment
//     that ends the line) (a new object's members are indented one unit more
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
//   - A missing file is created as "{}\n" plus the new members; removing the
//     last entry leaves the file holding "{}\n" rather than deleting it.
//   - A name held twice in an object an edit goes through or changes is an
//     error: which of the two a tool reads is not chronicle's to guess.
//
// Edit parses its result again and checks that it means exactly the
// document with the changes made: the members set hold their intended
// values, the members removed are gone, and everything else means what it
// meant before. Otherwise it returns an error and no bytes.
package jsonfile
