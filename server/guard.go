package server

import (
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// The codes of the refusals at the HTTP edge.
const (
	codeCrossSite   = "cross_site"             // a state-changing request from another site
	codeContentType = "unsupported_media_type" // a state-changing request that is not JSON
)

// The metric labels of refusals at the edge.
const (
	refusedCrossSite   = "cross_site"
	refusedContentType = "content_type"
	refusedRate        = "rate"
	refusedWSAddress   = "ws_address"
	refusedWSTotal     = "ws_total"
)

// stateChanging says whether the method may change state: everything but
// GET, HEAD and OPTIONS.
func stateChanging(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}

// isWebSocket says whether the request asks for a table's WebSocket.
func isWebSocket(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/ws/")
}

// guard refuses, before any handler runs, what no route may accept:
// a state-changing request from another site (403) or not in JSON (415),
// and requests over the rate limits (429, with Retry-After). The rate
// limits count every state-changing request and every WebSocket upgrade,
// per client address and per player (by the token it carries).
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		changing := stateChanging(r.Method)
		if !changing && !isWebSocket(r) {
			next.ServeHTTP(w, r)
			return
		}
		if changing {
			if err := s.csrf.Check(r); err != nil {
				s.mRefused.WithLabelValues(refusedCrossSite).Inc()
				writeJSON(w, http.StatusForbidden, apiError{Error: crossSiteMessage(r), Code: codeCrossSite})
				return
			}
			if msg := jsonContentType(r); msg != "" {
				s.mRefused.WithLabelValues(refusedContentType).Inc()
				writeJSON(w, http.StatusUnsupportedMediaType, apiError{Error: msg, Code: codeContentType})
				return
			}
		}
		player := ""
		if tok := tokenOf(r); tok != "" {
			player = hashToken(tok)
		}
		if ref := allowAll(time.Now(), setKey{s.addrRate, addrKey(s.clientAddr(r))}, setKey{s.playerRate, player}); ref != nil {
			s.mRefused.WithLabelValues(refusedRate).Inc()
			w.Header().Set("Retry-After", strconv.Itoa(ref.retryAfter()))
			writeJSON(w, http.StatusTooManyRequests, apiError{Error: ref.Error(), Code: codeRateLimited})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// jsonContentType returns why the request's body is not declared as JSON,
// or "" when it is. Forms (text/plain, urlencoded, multipart) are what a
// page of another site can send without asking: refusing them is half of
// the cross-site defence.
func jsonContentType(r *http.Request) string {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return "Content-Type must be application/json (none was sent)"
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return fmt.Sprintf("Content-Type must be application/json (got %q)", truncate(ct, 60))
	}
	return ""
}

// crossSiteMessage says why a request was taken for a cross-site one.
func crossSiteMessage(r *http.Request) string {
	if sfs := r.Header.Get("Sec-Fetch-Site"); sfs != "" {
		return fmt.Sprintf("cross-site request refused: the browser says it comes from another site (Sec-Fetch-Site: %s, Origin: %s)",
			truncate(sfs, 20), truncate(r.Header.Get("Origin"), 100))
	}
	return fmt.Sprintf("cross-site request refused: Origin %s is not this site (%s)", truncate(r.Header.Get("Origin"), 100), truncate(r.Host, 100))
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// CheckPublicURL says what is wrong with a public URL (Options.PublicURL),
// or returns nil.
func CheckPublicURL(raw string) error {
	_, err := originOf(raw)
	return err
}

// originOf returns the origin (scheme://host[:port]) of a URL, or an
// error saying what is wrong with it.
func originOf(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("public URL %q: want http(s)://host[:port]", raw)
	}
	if u.Path != "" && u.Path != "/" {
		return nil, fmt.Errorf("public URL %q: the game is served at the root; give no path", raw)
	}
	return &url.URL{Scheme: u.Scheme, Host: u.Host}, nil
}

// hsts is the Strict-Transport-Security header of an HTTPS site: a year.
const hsts = "max-age=31536000"

// edge is the state of the HTTP edge of a Server.
type edge struct {
	csrf        *http.CrossOriginProtection
	addrRate    *limiterSet // state-changing requests and upgrades per client address
	playerRate  *limiterSet // the same per player
	ws          *wsLimits
	publicHTTPS bool // --public-url is https
	publicHost  string
	mRefused    *prometheus.CounterVec
}

// initEdge fills in the defaults of the edge's options and sets it up.
func (s *Server) initEdge() error {
	o := &s.opt
	setDefault(&o.AddressRate, 10)
	setDefault(&o.AddressBurst, 50)
	setDefault(&o.PlayerRate, 5)
	setDefault(&o.PlayerBurst, 20)
	setDefault(&o.RateClients, 65536)
	setDefault(&o.PlayerMessageRate, 40)
	setDefault(&o.PlayerMessageBurst, 80)
	setDefault(&o.WSPerAddress, 16)
	setDefault(&o.WSTotal, 5000)
	s.csrf = http.NewCrossOriginProtection()
	if o.PublicURL != "" {
		u, err := originOf(o.PublicURL)
		if err != nil {
			return err
		}
		if err := s.csrf.AddTrustedOrigin(u.String()); err != nil {
			return fmt.Errorf("public URL %q: %v", o.PublicURL, err)
		}
		s.publicHTTPS, s.publicHost = u.Scheme == "https", u.Host
	}
	s.addrRate = newLimiterSet("address", o.AddressRate, o.AddressBurst, o.RateClients)
	s.playerRate = newLimiterSet("player", o.PlayerRate, o.PlayerBurst, o.RateClients)
	s.ws = newWSLimits(*o)
	s.mRefused = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "farkle_http_refused_total",
		Help: "Requests refused at the edge, by reason (cross_site, content_type, rate, ws_address, ws_total)."}, []string{"reason"})
	for _, r := range []string{refusedCrossSite, refusedContentType, refusedRate, refusedWSAddress, refusedWSTotal} {
		s.mRefused.WithLabelValues(r)
	}
	s.reg.MustRegister(s.mRefused)
	return nil
}

// setDefault sets a zero *v to def.
func setDefault[T int | float64 | time.Duration](v *T, def T) {
	if *v == 0 {
		*v = def
	}
}

// transport adds Strict-Transport-Security to every answer of an HTTPS
// site (see secureRequest); plain HTTP gets none, so that a local server
// keeps working.
func (s *Server) transport(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.secureRequest(r) {
			w.Header().Set("Strict-Transport-Security", hsts)
		}
		next.ServeHTTP(w, r)
	})
}
