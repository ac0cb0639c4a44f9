package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/internal/syncbuf"
	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/server/wsclient"
)

// testCA makes a CA and a certificate it signs for names (DNS names or
// addresses), writes the certificate and key as PEM files and returns
// their paths and the CA's pool.
func testCA(t *testing.T, names ...string) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ca := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "farkle test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	leaf := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: names[0]},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	for _, n := range names {
		if ip := net.ParseIP(n); ip != nil {
			leaf.IPAddresses = append(leaf.IPAddresses, ip)
		} else {
			leaf.DNSNames = append(leaf.DNSNames, n)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, leaf, caCert, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	kb, _ := x509.MarshalECPrivateKey(key)
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	pool = x509.NewCertPool()
	pool.AddCert(caCert)
	return certFile, keyFile, pool
}

// spawnHTTPS runs serve with flags, over HTTPS, and returns the game's
// https URL and the redirecting listener's address (from the log).
func spawnHTTPS(t *testing.T, env []string, stderr *syncbuf.Buffer, flags ...string) (string, string) {
	t.Helper()
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--metrics-addr", "", "--http-addr", "127.0.0.1:0"}, flags...)
	cmd := exec.Command(farkleBin, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	rd := bufio.NewReader(out)
	var lines [2]string
	for i := range lines {
		if lines[i], err = rd.ReadString('\n'); err != nil {
			t.Fatalf("serve printed %q, then: %v\n%s", lines, err, stderr)
		}
	}
	go io.Copy(io.Discard, rd)
	f := strings.Fields(lines[0])
	if len(f) < 3 || !strings.HasPrefix(f[2], "https://") {
		t.Fatalf("serve printed %q: want an https URL", lines[0])
	}
	g := strings.Fields(lines[1])
	if len(g) < 2 || !strings.HasPrefix(g[1], "http://") || !strings.Contains(lines[1], "redirects to HTTPS") {
		t.Fatalf("serve printed %q: want the redirecting listener", lines[1])
	}
	return f[2], strings.TrimPrefix(g[1], "http://")
}

// checkHTTPS checks the node at base through client: HTTPS with HSTS, a
// Secure cookie, a WebSocket over TLS; and its plain-HTTP listener at
// redirect answering with a redirect to HTTPS.
func checkHTTPS(t *testing.T, client *http.Client, base, redirect string) {
	t.Helper()
	resp, err := client.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.TLS == nil || resp.TLS.Version < tls.VersionTLS12 {
		t.Fatalf("GET /healthz over TLS: %d, %+v", resp.StatusCode, resp.TLS)
	}
	if h := resp.Header.Get("Strict-Transport-Security"); !strings.Contains(h, "max-age=") {
		t.Errorf("no HSTS over HTTPS: %q", h)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := wsclient.New(base)
	c.HTTP.Transport = client.Transport
	if _, _, err := c.NewPlayer(ctx, "Ann"); err != nil {
		t.Fatal(err)
	}
	u, _ := http.NewRequest("GET", base, nil)
	secure := false
	for _, ck := range c.HTTP.Jar.Cookies(u.URL) {
		secure = secure || ck.Name != ""
	}
	if !secure {
		t.Errorf("no session cookie kept for %s (a Secure cookie is kept only over HTTPS)", base)
	}
	tb, err := c.CreateTable(ctx, map[string]any{"base": "classic"}, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "steady"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Connect(ctx, tb.ID); err != nil {
		t.Fatalf("WebSocket over TLS: %v", err)
	}
	m, err := c.Next(ctx)
	if err != nil || m.Type != "welcome" {
		t.Fatalf("WebSocket over TLS: %+v, %v", m, err)
	}
	c.Close()
	plain := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err = plain.Get("http://" + redirect + "/tables/x?y=1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(base, "https://"))
	want := "https://127.0.0.1:" + port + "/tables/x?y=1"
	if resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != want {
		t.Errorf("plain HTTP: %d to %q, want 301 to %q", resp.StatusCode, resp.Header.Get("Location"), want)
	}
}

// TestServeTLSFiles serves HTTPS with a certificate from files and checks
// it with Go's TLS client trusting only the test's CA.
func TestServeTLSFiles(t *testing.T) {
	cert, key, pool := testCA(t, "127.0.0.1", "localhost")
	stderr := &syncbuf.Buffer{}
	base, redirect := spawnHTTPS(t, nil, stderr, "--db", filepath.Join(t.TempDir(), "farkle.db"), "--tls-cert", cert, "--tls-key", key)
	base = strings.Replace(base, "localhost", "127.0.0.1", 1)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	checkHTTPS(t, client, base, redirect)
	// A client that does not trust the CA is refused the handshake.
	if _, err := http.Get(base + "/healthz"); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("a client without the CA: %v, want a certificate error", err)
	}
}

// TestServeTLSBadFlags: HTTPS flags that cannot work are refused at once,
// naming the flag.
func TestServeTLSBadFlags(t *testing.T) {
	cert, key, _ := testCA(t, "localhost")
	junk := writeTestFile(t, "junk.pem", "not a certificate")
	for _, tc := range []struct {
		args    []string
		mention string
	}{
		{[]string{"--tls-cert", cert}, "go together"},
		{[]string{"--tls-key", key}, "go together"},
		{[]string{"--tls-cert", junk, "--tls-key", key}, "--tls-cert"},
		{[]string{"--tls-cert", cert, "--tls-key", key, "--acme-domain", "farkle.example.org"}, "one or the other"},
		{[]string{"--acme-domain", "127.0.0.1"}, "--acme-domain"},
		{[]string{"--acme-domain", "https://farkle.example.org"}, "--acme-domain"},
		{[]string{"--acme-domain", "a.example.org,"}, "empty"},
		{[]string{"--acme-domain", strings.Repeat("a.example.org,", 21) + "b.example.org"}, "at most 20"},
		{[]string{"--acme-domain", "farkle.example.org", "--acme-directory", "http://ca.example.org/dir"}, "--acme-directory"},
		{[]string{"--acme-email", "me@example.org"}, "only with"},
		{[]string{"--http-addr", ":80"}, "only with"},
	} {
		_, errOut, code := runFarkle(t, "", append([]string{"serve", "--db", filepath.Join(t.TempDir(), "x.db")}, tc.args...)...)
		checkBadInput(t, errOut, code, tc.mention)
	}
}

// pebble builds Let's Encrypt's test CA, Pebble (a Go module), and runs it
// accepting every challenge; it returns its directory URL, the file of the
// CA that signs its own HTTPS certificate, and the pool of the roots it
// issues from.
func pebble(t *testing.T) (directory, minica string, roots *x509.CertPool) {
	t.Helper()
	const version = "github.com/letsencrypt/pebble/v2@v2.10.3"
	bin := t.TempDir()
	install := exec.Command("go", "install", strings.Replace(version, "@", "/cmd/pebble@", 1))
	install.Env = append(os.Environ(), "GOBIN="+bin, "GOFLAGS=")
	if out, err := install.CombinedOutput(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("go install pebble: %v\n%s", err, out)
		}
		t.Skipf("cannot build Pebble (%v): %s", err, out)
	}
	out, err := exec.Command("go", "mod", "download", "-json", version).Output()
	if err != nil {
		t.Fatal(err)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
		t.Fatalf("go mod download: %v %s", err, out)
	}
	certs := filepath.Join(mod.Dir, "test", "certs")
	listen, manage := fmt.Sprintf("127.0.0.1:%d", freePort(t)), fmt.Sprintf("127.0.0.1:%d", freePort(t))
	conf := map[string]any{"pebble": map[string]any{
		"listenAddress": listen, "managementListenAddress": manage,
		"certificate": filepath.Join(certs, "localhost", "cert.pem"), "privateKey": filepath.Join(certs, "localhost", "key.pem"),
		"httpPort": 5002, "tlsPort": 5001, "retryAfter": map[string]int{"authz": 1, "order": 1},
		"profiles": map[string]any{"default": map[string]any{"description": "test", "validityPeriod": 7776000}},
	}}
	b, _ := json.Marshal(conf)
	confFile := filepath.Join(bin, "pebble.json")
	if err := os.WriteFile(confFile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(bin, "pebble"), "-config", confFile)
	cmd.Env = append(os.Environ(), "PEBBLE_VA_ALWAYS_VALID=1", "PEBBLE_VA_NOSLEEP=1", "PEBBLE_WFE_NONCEREJECT=0")
	logs := &syncbuf.Buffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	minica = filepath.Join(certs, "pebble.minica.pem")
	pem, err := os.ReadFile(minica)
	if err != nil {
		t.Fatal(err)
	}
	mini := x509.NewCertPool()
	mini.AppendCertsFromPEM(pem)
	mgmt := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: mini}}}
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := mgmt.Get("https://" + manage + "/roots/0")
		if err == nil {
			root, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			roots = x509.NewCertPool()
			if resp.StatusCode == 200 && roots.AppendCertsFromPEM(root) {
				return "https://" + acmeLocationProxy(t, listen, certs, mini) + "/dir", minica, roots
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("Pebble does not answer: %v\n%s", err, logs)
		}
		time.Sleep(50 * time.Millisecond) // polling a process that starts: no event to wait on
	}
}

// acmeLocationProxy serves Pebble's ACME API at another address, adding
// to the answer of an order's finalization the Location header that
// Let's Encrypt sends and Pebble does not (RFC 8555 does not require it):
// golang.org/x/crypto/acme waits for a certificate still being issued at
// that URL. Every URL of Pebble's answers is rewritten to the proxy's. It
// returns the proxy's address.
func acmeLocationProxy(t *testing.T, pebble, certs string, mini *x509.CertPool) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	self := ln.Addr().String()
	target, _ := url.Parse("https://" + pebble)
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.Transport = &http.Transport{TLSClientConfig: &tls.Config{RootCAs: mini}}
	rp.ModifyResponse = func(res *http.Response) error {
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			return err
		}
		body = bytes.ReplaceAll(body, []byte(pebble), []byte(self))
		res.Body = io.NopCloser(bytes.NewReader(body))
		res.ContentLength = int64(len(body))
		res.Header.Set("Content-Length", fmt.Sprint(len(body)))
		for _, h := range []string{"Location", "Link"} {
			for i, v := range res.Header.Values(h) {
				res.Header[h][i] = strings.ReplaceAll(v, pebble, self)
			}
		}
		if id, ok := strings.CutPrefix(res.Request.URL.Path, "/finalize-order/"); ok && res.Header.Get("Location") == "" {
			res.Header.Set("Location", "https://"+self+"/my-order/"+id)
		}
		return nil
	}
	cert, err := tls.LoadX509KeyPair(filepath.Join(certs, "localhost", "cert.pem"), filepath.Join(certs, "localhost", "key.pem"))
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: rp, TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}}}
	go srv.ServeTLS(ln, "", "")
	t.Cleanup(func() { srv.Close() })
	return self
}

// TestServeACME gets the node's certificate from a local ACME CA (Pebble,
// Let's Encrypt's test CA, built from its Go module, accepting every
// challenge) on the first handshake, serves HTTPS with it to a client
// trusting only that CA's root, refuses a name it was not given, and,
// started again with the CA unreachable, serves the certificate from its
// cache.
func TestServeACME(t *testing.T) {
	// Compiling Pebble takes a minute on a small machine.
	testflags.SkipUnlessLong(t, "builds Pebble")
	directory, minica, roots := pebble(t)
	dir := t.TempDir()
	cache := filepath.Join(dir, "acme")
	flags := []string{"--db", filepath.Join(dir, "farkle.db"), "--acme-domain", "farkle.test", "--acme-directory", directory, "--acme-cache", cache, "--acme-email", "ops@farkle.test"}
	env := []string{"SSL_CERT_FILE=" + minica} // the node trusts Pebble's own HTTPS
	stderr := &syncbuf.Buffer{}
	base, redirect := spawnHTTPS(t, env, stderr, flags...)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(base, "https://"))
	// The client asks for farkle.test (SNI) at the node's address.
	client := func(port string) *http.Client {
		return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
			TLSClientConfig: &tls.Config{RootCAs: roots},
			DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, network, "127.0.0.1:"+port)
			}}}
	}
	resp, err := client(port).Get("https://farkle.test:" + port + "/healthz")
	if err != nil {
		time.Sleep(200 * time.Millisecond) // for the node's log of the handshake to come through
		t.Fatalf("first HTTPS request (the certificate is got meanwhile): %v\n%s", err, stderr)
	}
	resp.Body.Close()
	if len(resp.TLS.PeerCertificates) == 0 || resp.TLS.PeerCertificates[0].DNSNames[0] != "farkle.test" {
		t.Fatalf("certificate: %+v", resp.TLS.PeerCertificates)
	}
	if _, err := os.Stat(filepath.Join(cache, "farkle.test")); err != nil {
		t.Errorf("the certificate is not in the cache: %v", err)
	}
	_ = redirect
	// A name the node was not given gets no certificate.
	bad := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, ServerName: "other.test"}}}
	if _, err := bad.Get(strings.Replace(base, "localhost", "127.0.0.1", 1) + "/healthz"); err == nil {
		t.Error("a handshake for other.test succeeded")
	}
	// Started again without the CA (its directory unreachable), the node
	// serves the cached certificate.
	stderr2 := &syncbuf.Buffer{}
	flags[len(flags)-5] = "https://127.0.0.1:1/dir"
	base2, _ := spawnHTTPS(t, env, stderr2, flags...)
	_, port2, _ := net.SplitHostPort(strings.TrimPrefix(base2, "https://"))
	resp, err = client(port2).Get("https://farkle.test:" + port2 + "/healthz")
	if err != nil {
		t.Fatalf("HTTPS from the cache: %v\n%s", err, stderr2)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Strict-Transport-Security") == "" {
		t.Errorf("HTTPS from the cache: %d, HSTS %q", resp.StatusCode, resp.Header.Get("Strict-Transport-Security"))
	}
}
