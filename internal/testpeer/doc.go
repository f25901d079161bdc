// Package testpeer decides, for every test of the repository, whether a
// test peer is present: an npm package that `make npm` installs under
// tools/npm/node_modules (the MCP Inspector CLI, server-everything, the
// conformance suite), or a program on PATH (node, chromium).
//
// One rule, everywhere: a missing peer skips the test on a developer's
// machine, with a message saying how to install it, and fails the test in CI
// (CI=true, which .ci/run sets), where `make test` must have installed every
// peer — a peer that quietly went missing would otherwise turn the
// end-to-end tests into skips that look like passes.
package testpeer
