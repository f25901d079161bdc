// Package gittest runs a real HTTPS git server for tests: git http-backend
// behind net/http/cgi on an httptest TLS server, over bare repositories the
// test creates and fills with the git binary.
//
// Trust. Every server presents one certificate made once per test process.
// Code under test verifies it through the system pool, exactly as the
// product does, because Main (or Trust) writes the certificate to a file and
// points SSL_CERT_FILE at it before the process makes its first TLS
// connection. Go reads SSL_CERT_FILE once per process (crypto/x509 loads the
// system pool under a sync.Once), so Trust checks afterwards that the pool
// really holds the certificate and fails loudly when something loaded the
// pool earlier. Tests that start a subprocess pass Server.CertFile as the
// child's SSL_CERT_FILE instead.
//
// The git binary is required (apt-get install git). Every git command runs
// with HOME and GIT_CONFIG_GLOBAL in temporary folders, so the user's own
// git configuration is never read or written.
package gittest
