// Package lockfile owns .chronicle.lock.hcl, the lock file committed with
// the configuration: for each git skill block, the repository, the ref and
// the commit that every machine installs (issue 22, decision 0081).
//
// The file is HCL written with hclwrite: a format version and one block per
// locked thing, of which version 1 knows one type, skill. Block types this
// version does not know are left as written, so later versions can add
// their own. Only "chronicle lock" writes the file (File.Lock, then
// File.Bytes); plan and apply read it.
//
// The kernel lock that serialises applies is engine/lock, not this.
package lockfile
