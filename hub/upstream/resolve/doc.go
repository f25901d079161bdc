// Package resolve resolves the references of one upstream's service
// (secret("env:…"), secret("file:…")) and registers every value they
// resolve to, and the literal values under secret-looking names, with the
// hub's masker before any is used.
package resolve
