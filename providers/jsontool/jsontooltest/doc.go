// Package jsontooltest holds the checks every JSON tool provider's tests run
// (and goose's, whose file is YAML: the checks only go through
// provider.Provider) against real temporary homes laid out from
// testdata/fixtures: round trips that must give back the original bytes,
// replacements that touch only their entry, symlinks, unparsable and
// missing files. Files are read and
// edited as the engine does it (package providertest).
package jsontooltest
