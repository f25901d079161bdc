// Package scan reads what every tool has on this machine — MCP entries and
// skills folders — through the providers it is given, and classifies each
// item against the configuration (SPEC §5). A tool file that cannot be read
// is an error for that tool only; it is never taken as empty.
//
// Given the vendors' moves of users between tools (provider.Succession, as
// data: the providers know which tool succeeds which), a scan also lists
// each server the old tool has and the new one lacks at the same scope
// (Move), with the link that keeps both the same.
package scan
