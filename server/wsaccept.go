package server

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"
)

// acceptWS upgrades a table's WebSocket request for the player (empty: a
// watcher without a player) within the caps on connections, or answers
// the refusal itself and returns ok false. The connection's deadlines,
// set by the HTTP server's read and write timeouts for ordinary
// requests, are cleared first (net/http's Hijack clears them as well;
// this does not depend on it): a WebSocket lives on, watched by its pings
// and per-write timeouts. cork is the connection underneath, which the
// client's writer corks (wscork.go). Call release when the connection ends.
func (s *Server) acceptWS(w http.ResponseWriter, r *http.Request, playerID string) (conn *websocket.Conn, cork *corkConn, limits messageLimits, release func(), ok bool) {
	addr := addrKey(s.clientAddr(r))
	if ref := s.ws.open(addr); ref != nil {
		reason := refusedWSAddress
		if ref.status == http.StatusServiceUnavailable {
			reason = refusedWSTotal
		}
		s.mRefused.WithLabelValues(reason).Inc()
		writeJSON(w, ref.status, apiError{Error: ref.msg, Code: ref.code})
		return nil, nil, messageLimits{}, nil, false
	}
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{}) // not supported by test recorders: nothing to clear there
	_ = rc.SetWriteDeadline(time.Time{})
	opts := &websocket.AcceptOptions{} // refuses an Origin other than the Host ...
	if s.publicHost != "" {
		opts.OriginPatterns = []string{s.publicHost} // ... or the public URL's
	}
	cw := &corkWriter{ResponseWriter: w}
	conn, err := websocket.Accept(cw, r, opts)
	if err != nil {
		s.ws.close(addr, "")
		return nil, nil, messageLimits{}, nil, false
	}
	conn.SetReadLimit(s.opt.MaxMessage)
	connRate := rate.Limit(s.opt.ActionRate)
	if s.opt.ActionRate < 0 { // no limit per connection
		connRate = rate.Inf
	}
	limits = messageLimits{conn: rate.NewLimiter(connRate, max1(s.opt.ActionBurst)), player: s.ws.player(playerID),
		connRate: s.opt.ActionRate, connBurst: s.opt.ActionBurst, playerRate: s.opt.PlayerMessageRate, playerBurst: s.opt.PlayerMessageBurst}
	return conn, cw.conn, limits, func() { s.ws.close(addr, playerID) }, true
}

// messageLimits are the buckets a WebSocket message takes a token from:
// the connection's own and its player's, shared by all of the player's
// connections (nil for a watcher without a player).
type messageLimits struct {
	conn, player           *rate.Limiter
	connRate, playerRate   float64
	connBurst, playerBurst int
}

// allow takes a token from each bucket at now, or none and returns why the
// message is refused.
func (m messageLimits) allow(now time.Time) string {
	rc := m.conn.ReserveN(now, 1)
	if d := rc.DelayFrom(now); d > 0 {
		rc.CancelAt(now)
		return fmt.Sprintf("too many messages: at most %s a second (burst %d) on one connection; slow down", fmtRate(m.connRate), m.connBurst)
	}
	if m.player == nil {
		return ""
	}
	rp := m.player.ReserveN(now, 1)
	if d := rp.DelayFrom(now); d > 0 {
		rp.CancelAt(now)
		rc.CancelAt(now)
		return fmt.Sprintf("too many messages: at most %s a second (burst %d) from one player over all of its connections; slow down",
			fmtRate(m.playerRate), m.playerBurst)
	}
	return ""
}

func fmtRate(r float64) string { return strconv.FormatFloat(r, 'g', -1, 64) }
