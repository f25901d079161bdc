// Package names holds the naming rule of chronicle's services, skills, links
// and tools, and the names chronicle reserves. It is a leaf: the skill store,
// snapshots and git fetching check names without importing the HCL
// configuration package.
package names
