package main

import (
	"flag"
	"log/slog"
	"net/http"
	"time"

	"github.com/farkle/farkle/server"
)

// serveEdge is how the serve command's HTTP servers treat connections.
// Zero fields take the defaults of the flags (see edgeFlags).
type serveEdge struct {
	ReadHeaderTimeout time.Duration // 5s: to read a request's headers
	ReadTimeout       time.Duration // 10s: to read a whole request, body included
	WriteTimeout      time.Duration // 30s: from the end of the headers to the end of the answer
	IdleTimeout       time.Duration // 60s: a kept-alive connection waiting for its next request
	MaxHeaderBytes    int           // 64 KiB: the request line and headers
	MetricsAddr       string        // "": no metrics listener; the flag's default is 127.0.0.1:9090
	// MetricsOptional: the address was not asked for (the flag's default),
	// so a port already taken (another farkle, a Prometheus) leaves the
	// game served without metrics, with a warning, instead of failing.
	MetricsOptional bool
	// Pprof serves Go's profiles (/debug/pprof/) on the metrics listener,
	// for an operator measuring a node; off by default.
	Pprof bool
}

const (
	defReadHeaderTimeout = 5 * time.Second
	defReadTimeout       = 10 * time.Second
	defWriteTimeout      = 30 * time.Second
	defIdleTimeout       = 60 * time.Second
	defMaxHeaderBytes    = 64 << 10
)

// httpServer returns an HTTP server of h with the edge's timeouts. Its
// WebSockets clear the timeouts once upgraded (server.acceptWS).
func (e serveEdge) httpServer(h http.Handler, log *slog.Logger) *http.Server {
	def := func(d, def time.Duration) time.Duration {
		if d == 0 {
			return def
		}
		return d
	}
	maxHeader := e.MaxHeaderBytes
	if maxHeader == 0 {
		maxHeader = defMaxHeaderBytes
	}
	return &http.Server{Handler: h,
		ReadHeaderTimeout: def(e.ReadHeaderTimeout, defReadHeaderTimeout),
		ReadTimeout:       def(e.ReadTimeout, defReadTimeout),
		WriteTimeout:      def(e.WriteTimeout, defWriteTimeout),
		IdleTimeout:       def(e.IdleTimeout, defIdleTimeout),
		MaxHeaderBytes:    maxHeader,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
}

// edgeFlags registers the flags of the HTTP edge on the serve command's
// flags: connection timeouts, the metrics listener, the public URL and
// trusted proxies, rate limits and WebSocket caps. The function it returns
// checks the parsed values and sets them in m. A rate or cap of 0 turns
// that limit off.
func edgeFlags(fs *flag.FlagSet) func(m *serveMain) error {
	readHeader := fs.Duration("read-header-timeout", defReadHeaderTimeout, "the time to read a request's headers")
	read := fs.Duration("read-timeout", defReadTimeout, "the time to read a whole request, body included: a slower client is cut off")
	write := fs.Duration("write-timeout", defWriteTimeout, "the time from a request's headers to the end of its answer (not for WebSockets)")
	idle := fs.Duration("idle-timeout", defIdleTimeout, "how long a kept-alive connection may wait for its next request")
	maxHeader := fs.Int("max-header-bytes", defMaxHeaderBytes, "the longest request line and headers, in bytes")
	metrics := fs.String("metrics-addr", "127.0.0.1:9090", `the address of the Prometheus /metrics listener ("": none); keep it private`)
	pprofOn := fs.Bool("pprof", false, "also serve Go's profiles (/debug/pprof/) on the --metrics-addr listener, to profile a node under load (keep that listener private)")
	public := fs.String("public-url", "", "the site's address as browsers see it, e.g. https://farkle.example.org: https makes cookies Secure and sends HSTS")
	proxies := fs.String("trusted-proxies", "", "comma-separated addresses or CIDR prefixes of reverse proxies whose X-Forwarded-For, X-Real-IP and X-Forwarded-Proto are believed")
	addrRate := fs.Float64("rate-address", 10, "POSTs and WebSocket upgrades a second from one client address (0: no limit)")
	addrBurst := fs.Int("burst-address", 50, "the burst of --rate-address: requests one client address may send at once")
	playerRate := fs.Float64("rate-player", 5, "POSTs and WebSocket upgrades a second from one player (0: no limit)")
	playerBurst := fs.Int("burst-player", 20, "the burst of --rate-player: requests one player may send at once")
	rateClients := fs.Int("rate-clients", 65536, "client addresses (and players) whose rate is tracked at once, per limit; the least recently seen are forgotten (at least 1: it bounds the memory of the rate limits)")
	wsRate := fs.Float64("ws-rate", 20, "WebSocket messages a second on one connection (0: no limit)")
	wsBurst := fs.Int("ws-burst", 40, "the burst of --ws-rate: messages one connection may send at once")
	wsPlayerRate := fs.Float64("ws-player-rate", 40, "WebSocket messages a second from one player over all of its connections (0: no limit)")
	wsPlayerBurst := fs.Int("ws-player-burst", 80, "the burst of --ws-player-rate: messages one player may send at once")
	wsPerAddress := fs.Int("ws-per-address", 16, "WebSocket connections open from one client address (0: no cap)")
	wsMax := fs.Int("ws-max", 5000, "WebSocket connections open in all (0: no cap)")
	maxMessage := fs.Int64("max-message", 4096, "the longest WebSocket message, in bytes: a longer one closes the connection")
	return func(m *serveMain) error {
		for name, v := range map[string]time.Duration{"read-header-timeout": *readHeader, "read-timeout": *read, "write-timeout": *write, "idle-timeout": *idle} {
			if v <= 0 {
				return usagef("--%s %s: must be more than 0", name, v)
			}
		}
		for name, v := range map[string]float64{"rate-address": *addrRate, "rate-player": *playerRate, "ws-rate": *wsRate, "ws-player-rate": *wsPlayerRate} {
			if v < 0 || v != v {
				return usagef("--%s %g: must be 0 or more", name, v)
			}
		}
		for name, v := range map[string]int{"burst-address": *addrBurst, "burst-player": *playerBurst, "ws-burst": *wsBurst, "ws-player-burst": *wsPlayerBurst,
			"rate-clients": *rateClients} {
			if v < 1 {
				return usagef("--%s %d: must be 1 or more", name, v)
			}
		}
		for name, v := range map[string]int{"ws-per-address": *wsPerAddress, "ws-max": *wsMax} {
			if v < 0 {
				return usagef("--%s %d: must be 0 or more", name, v)
			}
		}
		if *maxHeader < 4096 {
			return usagef("--max-header-bytes %d: at least 4096", *maxHeader)
		}
		if *maxMessage < 512 {
			return usagef("--max-message %d: at least 512", *maxMessage)
		}
		tp, err := server.ParseProxies(*proxies)
		if err != nil {
			return usagef("--trusted-proxies: %v", err)
		}
		off := func(v float64) float64 { // Options: 0 is the default, negative is off
			if v == 0 {
				return -1
			}
			return v
		}
		offN := func(v int) int {
			if v == 0 {
				return -1
			}
			return v
		}
		asked := false
		fs.Visit(func(f *flag.Flag) { asked = asked || f.Name == "metrics-addr" })
		m.Edge = serveEdge{ReadHeaderTimeout: *readHeader, ReadTimeout: *read, WriteTimeout: *write, IdleTimeout: *idle,
			MaxHeaderBytes: *maxHeader, MetricsAddr: *metrics, MetricsOptional: !asked, Pprof: *pprofOn}
		if *pprofOn && *metrics == "" {
			return usagef("--pprof: needs a --metrics-addr to serve on")
		}
		o := &m.Options
		o.PublicURL, o.TrustedProxies = *public, tp
		o.AddressRate, o.AddressBurst, o.PlayerRate, o.PlayerBurst = off(*addrRate), *addrBurst, off(*playerRate), *playerBurst
		o.RateClients = *rateClients
		o.ActionRate, o.ActionBurst, o.MaxMessage = off(*wsRate), *wsBurst, *maxMessage
		o.PlayerMessageRate, o.PlayerMessageBurst = off(*wsPlayerRate), *wsPlayerBurst
		o.WSPerAddress, o.WSTotal = offN(*wsPerAddress), offN(*wsMax)
		if *public != "" {
			if err := server.CheckPublicURL(*public); err != nil {
				return usagef("--public-url: %v", err)
			}
		}
		return nil
	}
}
