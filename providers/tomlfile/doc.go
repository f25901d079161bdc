// Package tomlfile edits named tables of a TOML file and leaves every
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
// Nothing here reads or writes a file: Parse takes the bytes the engine read,
// and Edit returns the bytes to install.
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
// held as dotted keys is replaced by a table at the insertion point. An entry
// held inline (x = { … } under [mcp_servers]) is removed like any other but
// never replaced: a TOML 1.1 inline table may span lines and hold comments
// that a new table would lose, so setting it is an error saying how to write
// it instead. A server map written inline (mcp_servers = { … }) or as an array
// of tables cannot be edited at all. New text uses the file's line ending (LF
// or CRLF). All the changes of one Edit are spliced in one pass where their
// spans are apart, and the result is verified once.
package tomlfile
