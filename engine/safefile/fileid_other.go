//go:build !unix

package safefile

import "io/fs"

// A fileID identifies a file where the platform says how; here it does not.
type fileID struct{}

func idOf(fs.FileInfo) fileID { return fileID{} }
