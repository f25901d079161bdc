// Package yamlfile edits named entries of a map in a YAML file and leaves
// every other byte alone. It is Goose's config.yaml editor: the entries are
// the extensions under the top-level "extensions" key.
//
// Reading goes through go.yaml.in/yaml/v3. Writing uses the same library
// only to *locate* an entry — the line of its key, and of the key after it —
// and to render the new entry's text; the text is spliced into exactly the
// entry's span of the original bytes. Re-encoding the whole node tree is not
// byte-preserving (it drops blank lines, moves comments and changes their
// spacing), so it is never done (docs/decisions/0093-yaml-span-editor.md).
// The result is parsed again and must decode to the document as read with
// only the intended entries changed; otherwise Edit returns an error and no
// bytes. Nothing here reads or writes a file: Parse takes the bytes the
// engine read, and Edit returns the bytes to install.
//
// # Layout rules
//
// An entry's span runs from the start of its key's line to the end of its
// last line that is neither blank nor only a comment, before the next key of
// the map (or of a map around it). Comment lines directly above an entry's
// key, and comment and blank lines after its last line, are not part of it:
// they stay where they are, as do the comments and blank lines around every
// other entry. Comments inside a replaced entry survive where they are
// attached to a field the new entry keeps (a comment above a field, or after
// its value on the same line); others inside the span, and blank lines
// inside it, do not.
//
// A new entry goes after the last line of the map's last entry, indented
// like the map's other keys, its fields indented by the step the file's
// entries use (two spaces when there is none to copy), after a blank line
// when the map keeps its entries apart with blank lines. A map that does not
// exist is added at the end of the file (top-level keys only); "key:" with
// no value, "key: ~" and "key: {}" become the map. Removing an entry removes
// its span and the blank line above it, if any, so that adding an entry and
// removing it again gives back the original bytes. Removing the last entry
// of a map removes the map's key as well when nothing but that entry was
// under it (so a map chronicle added leaves no trace), and leaves
// "key: {}" otherwise, so that comments under the key survive.
//
// Edits are refused, with an error naming the file and the entry, where a
// span cannot be trusted: a map written in flow style ({…}), an entry written
// in flow style, YAML anchors, aliases or merge keys in the map or the entry,
// keys that are not plain strings, and files with line breaks other than LF
// and CRLF (YAML also counts CR, NEL, LS and PS as breaks). New text uses the
// file's line ending.
package yamlfile
