package server

import (
	"fmt"
	"net/http"
	"sync"

	"golang.org/x/time/rate"
)

// wsLimits counts the open WebSocket connections, per client address and
// in all, and holds the message bucket each player shares over all of its
// connections. Its maps hold only keys with open connections, so they are
// bounded by the cap on connections.
type wsLimits struct {
	perAddress, total int     // caps on connections; < 0: none
	msgRate           float64 // per player, over all of its connections; < 0: none
	msgBurst          int

	mu      sync.Mutex
	n       int
	byAddr  map[string]int
	players map[string]*playerBucket
}

type playerBucket struct {
	lim   *rate.Limiter
	conns int
}

func newWSLimits(opt Options) *wsLimits {
	return &wsLimits{perAddress: opt.WSPerAddress, total: opt.WSTotal, msgRate: opt.PlayerMessageRate, msgBurst: max1(opt.PlayerMessageBurst),
		byAddr: map[string]int{}, players: map[string]*playerBucket{}}
}

// wsRefusal is a WebSocket connection refused before the upgrade.
type wsRefusal struct {
	status int
	code   string
	msg    string
}

// open takes a connection slot for the address key, or says why not: 429
// when the address has its share, 503 when the server is full. Call
// close(addr, player) when the connection ends.
func (l *wsLimits) open(addr string) *wsRefusal {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.total >= 0 && l.n >= l.total {
		return &wsRefusal{http.StatusServiceUnavailable, codeUnavailable,
			fmt.Sprintf("the server is full: at most %d live connections in all; try again later", l.total)}
	}
	if l.perAddress >= 0 && l.byAddr[addr] >= l.perAddress {
		return &wsRefusal{http.StatusTooManyRequests, codeRateLimited,
			fmt.Sprintf("too many connections: at most %d live connections from one address; close one first", l.perAddress)}
	}
	l.n++
	l.byAddr[addr]++
	return nil
}

// player returns the message bucket of the player (nil when there is no
// per-player limit or no player), counting one more connection of theirs.
func (l *wsLimits) player(id string) *rate.Limiter {
	if id == "" || l.msgRate < 0 {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.players[id]
	if b == nil {
		b = &playerBucket{lim: rate.NewLimiter(rate.Limit(l.msgRate), l.msgBurst)}
		l.players[id] = b
	}
	b.conns++
	return b.lim
}

// close gives back the slot taken by open(addr) and, when player is not
// empty, the player's share of its bucket.
func (l *wsLimits) close(addr, player string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n--
	if l.byAddr[addr]--; l.byAddr[addr] <= 0 {
		delete(l.byAddr, addr)
	}
	if b := l.players[player]; b != nil {
		if b.conns--; b.conns <= 0 {
			delete(l.players, player)
		}
	}
}
