// Package jsontooltest holds the checks every JSON tool provider's tests
// run against real temporary homes laid out from testdata/fixtures: round
// trips that must give back the original bytes, replacements that touch only
// their entry, symlinks, unparsable and missing files. Files are read and
// edited as the engine does it (package providertest).
package jsontooltest
