package gittest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// identity is the certificate every Server of this process presents.
type identity struct {
	cert tls.Certificate
	leaf *x509.Certificate
	pem  []byte
	file string // PEM file, written on first use
	err  error
}

var (
	identityOnce sync.Once
	theIdentity  identity
)

// serverIdentity returns the process-wide certificate, making it on first
// use: a self-signed certificate for 127.0.0.1, ::1 and localhost, valid
// for one day.
func serverIdentity() *identity {
	identityOnce.Do(func() { theIdentity = makeIdentity() })
	return &theIdentity
}

func makeIdentity() identity {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return identity{err: err}
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(time.Now().UnixNano()),
		Subject:               pkix.Name{CommonName: "chronicle gittest"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return identity{err: err}
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return identity{err: err}
	}
	dir, err := os.MkdirTemp("", "gittest-ca-")
	if err != nil {
		return identity{err: err}
	}
	id := identity{
		cert: tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf},
		leaf: leaf,
		pem:  pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		file: filepath.Join(dir, "gittest-ca.pem"),
	}
	id.err = os.WriteFile(id.file, id.pem, 0o644)
	return id
}

// CertFile returns the path of a PEM file holding the certificate every
// Server of this process presents: the value for a child process's
// SSL_CERT_FILE.
func CertFile() (string, error) {
	id := serverIdentity()
	return id.file, id.err
}

// CertPEM returns the servers' certificate in PEM form.
func CertPEM() ([]byte, error) {
	id := serverIdentity()
	return id.pem, id.err
}

// Trust points SSL_CERT_FILE at the servers' certificate so that this
// process's system pool trusts the test servers, and checks that it does.
// Call it before anything in the process verifies a TLS certificate (from
// TestMain, or use Main): Go loads the system pool once per process.
func Trust() error {
	id := serverIdentity()
	if id.err != nil {
		return fmt.Errorf("gittest: making the server certificate: %w", id.err)
	}
	if err := os.Setenv("SSL_CERT_FILE", id.file); err != nil {
		return err
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		return fmt.Errorf("gittest: loading the system pool: %w", err)
	}
	if _, err := id.leaf.Verify(x509.VerifyOptions{Roots: pool}); err != nil {
		return fmt.Errorf("gittest: the system pool was loaded before SSL_CERT_FILE was set (call gittest.Trust from TestMain before any TLS use): %w", err)
	}
	return nil
}
