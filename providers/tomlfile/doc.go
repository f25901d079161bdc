// Package tomlfile edits one named table of a TOML file and leaves every
// other byte alone.
//
// Reading goes through github.com/BurntSushi/toml. Writing locates the entry
// with a parser that reports positions (go-toml's unstable parser), splices
// new text into exactly that span, and checks the result with BurntSushi
// again: the entry must decode as intended and everything else as before.
//
// An entry is the table at a key path plus a name, such as
// [mcp_servers.github] together with its sub-tables ([mcp_servers.github.env]),
// or the same table written inline or with dotted keys under [mcp_servers].
//
// # Layout rules
//
// Comment lines directly above an entry's header, with no blank line between,
// stay where they are: a replace keeps them above the new header, and a
// remove leaves them too, because they may be the user's notes or a banner
// over the whole section, and chronicle never writes comments itself.
// Comments inside the entry's span (between its keys or its sub-tables) are
// part of the entry. Comments after its last key are not.
//
// A new entry goes after the last table under the key path (or at the end of
// the file), separated by one blank line. Removing an entry also removes one
// adjacent blank line (the one above it, else the one below it), so adding an
// entry and removing it again gives back the original bytes exactly. An entry
// held inline or as dotted keys is replaced by a table at the insertion point.
// New text uses the file's line ending (LF or CRLF).
package tomlfile
