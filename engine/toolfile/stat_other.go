//go:build !unix

package toolfile

import "io/fs"

func unlinked(fs.FileInfo) bool { return false }
