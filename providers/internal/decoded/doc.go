// Package decoded works on documents decoded into map[string]any trees,
// for the verification of package jsonfile and package tomlfile: the tree a
// document must decode to after an edit, and the maps an edit may leave
// empty and remove.
package decoded
