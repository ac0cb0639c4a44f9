package main

import (
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"

	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"

	"github.com/farkle/farkle/store/postgres"
)

// serveTLS is HTTPS served by the node itself, without a proxy: a
// certificate from files, or one got and renewed from an ACME CA (Let's
// Encrypt) for the domains asked for. HTTPS answers carry HSTS (server's
// secureRequest); a plain HTTP listener redirects to HTTPS and answers the
// CA's http-01 challenges.
type serveTLS struct {
	CertFile, KeyFile string   // --tls-cert, --tls-key
	Domains           []string // --acme-domain
	Email             string   // --acme-email
	Directory         string   // --acme-directory: the CA's ACME directory URL
	Cache             string   // --acme-cache: where certificates and the account key are kept
	HTTPAddr          string   // --http-addr: the redirecting listener ("" none)

	config   *tls.Config
	acme     *autocert.Manager
	redirect *http.Server
	HTTPURL  string // the redirecting listener's URL, set by start
}

// maxACMEDomains bounds --acme-domain: the names of one certificate.
const maxACMEDomains = 20

// tlsFlags registers the flags of HTTPS; the function it returns checks
// them and sets them in m.
func tlsFlags(fs *flag.FlagSet, getenv func(string) string) func(m *serveMain) error {
	var s serveTLS
	fs.StringVar(&s.CertFile, "tls-cert", "", "serve HTTPS with the certificate chain in this PEM `FILE` (with --tls-key); restart the node to load a renewed one")
	fs.StringVar(&s.KeyFile, "tls-key", "", "the private key of --tls-cert, a PEM `FILE`")
	domains := fs.String("acme-domain", "", "serve HTTPS with a certificate got and renewed by ACME (Let's Encrypt) for these comma-separated domain `NAMES` (at most 20); the CA must reach this node on port 80 (--http-addr) or 443 (--addr)")
	fs.StringVar(&s.Email, "acme-email", "", "with --acme-domain: the address the CA writes to about the certificates")
	fs.StringVar(&s.Directory, "acme-directory", autocert.DefaultACMEDirectory, "with --acme-domain: the CA's ACME directory URL (the default is Let's Encrypt's)")
	fs.StringVar(&s.Cache, "acme-cache", "", "with --acme-domain: the `DIR` where the certificates and the account key are kept (default: acme in $FARKLE_DATA_DIR, else beside a --db file, else in the working directory)")
	fs.StringVar(&s.HTTPAddr, "http-addr", "", `with HTTPS: a plain-HTTP address that redirects to HTTPS and answers the CA's challenges (default with --acme-domain ":80"; "" none)`)
	return func(m *serveMain) error {
		if *domains != "" {
			for _, d := range strings.Split(*domains, ",") {
				d = strings.TrimSpace(d)
				if err := checkDomain(d); err != nil {
					return usagef("--acme-domain %q: %v", d, err)
				}
				s.Domains = append(s.Domains, d)
			}
			if len(s.Domains) > maxACMEDomains {
				return usagef("--acme-domain: %d names, at most %d", len(s.Domains), maxACMEDomains)
			}
		}
		files := s.CertFile != "" || s.KeyFile != ""
		switch {
		case files && (s.CertFile == "" || s.KeyFile == ""):
			return usagef("--tls-cert and --tls-key go together")
		case files && len(s.Domains) > 0:
			return usagef("--tls-cert and --acme-domain: one or the other")
		case !files && len(s.Domains) == 0:
			for _, f := range []string{"acme-email", "acme-directory", "acme-cache", "http-addr"} {
				if flagGiven(fs, f) {
					return usagef("--%s: only with --tls-cert or --acme-domain", f)
				}
			}
			return nil
		}
		if files {
			cert, err := tls.LoadX509KeyPair(s.CertFile, s.KeyFile)
			if err != nil {
				return usagef("--tls-cert %s, --tls-key %s: %v", s.CertFile, s.KeyFile, err)
			}
			s.config = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
		} else {
			if !strings.HasPrefix(s.Directory, "https://") {
				return usagef("--acme-directory %q: an https:// URL", s.Directory)
			}
			if s.Cache == "" {
				dir := filepath.Dir(m.DB)
				if postgres.IsAddress(m.DB) {
					dir = "."
				}
				if d := getenv("FARKLE_DATA_DIR"); d != "" {
					dir = d
				}
				s.Cache = filepath.Join(dir, "acme")
			}
			if !flagGiven(fs, "http-addr") {
				s.HTTPAddr = ":80"
			}
			s.acme = &autocert.Manager{
				Prompt:     autocert.AcceptTOS,
				HostPolicy: autocert.HostWhitelist(s.Domains...),
				Cache:      autocert.DirCache(s.Cache),
				Email:      s.Email,
				Client:     &acme.Client{DirectoryURL: s.Directory},
			}
			s.config = s.acme.TLSConfig()
			s.config.MinVersion = tls.VersionTLS12
		}
		m.TLS = s
		return nil
	}
}

// checkDomain refuses what cannot be a certificate's DNS name.
func checkDomain(d string) error {
	switch {
	case d == "":
		return errors.New("an empty name")
	case len(d) > 253:
		return errors.New("longer than 253 characters")
	case net.ParseIP(d) != nil:
		return errors.New("an address: ACME certificates name domains")
	case strings.ContainsAny(d, "/:*@ "):
		return errors.New("not a domain name (no scheme, port, path or wildcard)")
	}
	return nil
}

// on reports whether the node serves HTTPS.
func (s *serveTLS) on() bool { return s.config != nil }

// listen wraps the node's listener in TLS.
func (s *serveTLS) listen(ln net.Listener) net.Listener { return tls.NewListener(ln, s.config) }

// start opens the redirecting listener, if any.
func (s *serveTLS) start(m *serveMain) error {
	if !s.on() || s.HTTPAddr == "" {
		return nil
	}
	ln, err := net.Listen("tcp", s.HTTPAddr)
	if err != nil {
		return fmt.Errorf("listen on %s (--http-addr, the redirect to HTTPS; \"\" for none): %w", s.HTTPAddr, err)
	}
	_, httpsPort, _ := net.SplitHostPort(m.httpsAddr)
	var h http.Handler = redirectHTTPS(httpsPort)
	if s.acme != nil {
		h = s.acme.HTTPHandler(h) // the CA's http-01 challenges, else the redirect
	}
	s.redirect = m.Edge.httpServer(h, m.Logger)
	s.HTTPURL = "http://" + ln.Addr().String()
	go func() {
		if err := s.redirect.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			m.failed <- err
		}
	}()
	m.Logger.Info("redirecting to HTTPS", "event", "tls", "addr", ln.Addr().String())
	return nil
}

// redirectHTTPS sends every request to the same host and path over HTTPS
// (on port, unless it is 443).
func redirectHTTPS(port string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if host == "" || len(host) > 253 {
			http.Error(w, "no host", http.StatusBadRequest)
			return
		}
		if port != "" && port != "443" {
			host = net.JoinHostPort(host, port)
		}
		http.Redirect(w, r, "https://"+host+r.URL.RequestURI(), http.StatusMovedPermanently)
	})
}

// logTLS says how the node serves HTTPS.
func (s *serveTLS) log(l *slog.Logger) {
	switch {
	case s.acme != nil:
		l.Info("HTTPS with ACME certificates", "event", "tls", "domains", strings.Join(s.Domains, ","), "directory", s.Directory, "cache", s.Cache)
	case s.on():
		l.Info("HTTPS with a certificate file", "event", "tls", "cert", s.CertFile)
	}
}
