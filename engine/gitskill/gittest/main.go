package gittest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Main trusts the test servers (see Trust), runs the tests and exits. Use it
// as a package's TestMain:
//
//	func TestMain(m *testing.M) { gittest.Main(m) }
func Main(m *testing.M) {
	if err := Trust(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	code := m.Run()
	if file, err := CertFile(); err == nil {
		os.RemoveAll(filepath.Dir(file))
	}
	os.Exit(code)
}
