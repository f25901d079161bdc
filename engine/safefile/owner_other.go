//go:build !unix

package safefile

import (
	"io/fs"
	"os"
)

// keepOwner does nothing where files have no Unix owner.
func keepOwner(*os.File, fs.FileInfo) error { return nil }

// newOwner does nothing where files have no Unix owner.
func newOwner(*os.File, string) error { return nil }

// InheritOwner does nothing where files have no Unix owner.
func InheritOwner(string) error { return nil }
