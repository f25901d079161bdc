// Package gitskill fetches skills from git repositories (SPEC §9) with
// go-git, over https only.
//
// Fetch clones one ref shallowly into a temporary folder, finds the skill
// folders (a SKILL.md up to five levels below a path), checks them as
// untrusted content and writes only the taken skills out of the git
// objects, so nothing from the repository reaches the disk before it has
// been checked. RemoteSHA resolves a ref to its commit by listing the
// remote's refs, which is how "skills outdated" compares without cloning.
//
// Certificates are verified against the system pool, which on Linux honours
// SSL_CERT_FILE and SSL_CERT_DIR; verification is never disabled. A token
// is sent as HTTP Basic auth with the user name "x-access-token", which
// GitHub, GitLab and Gitea accept; it never appears in an error.
package gitskill
