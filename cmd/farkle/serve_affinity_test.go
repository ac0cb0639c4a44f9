package main

import (
	"fmt"
	"testing"

	"github.com/farkle/farkle/store/postgres/pgtest"
)

// TestProxyRoutesByTable: behind each proxy of docs/deploy (nginx, Caddy)
// in front of three nodes, farkle load through the proxy's one address
// plays 30 tables: both players of every table reach one node (the nodes
// play again almost no action another node took:
// farkle_followed_actions_total, maxFollowed), and the tables are spread over every node (each
// accepted actions of players).
func TestProxyRoutesByTable(t *testing.T) {
	if testing.Short() {
		t.Skip("three nodes and a proxy: not in -short")
	}
	for _, proxy := range []string{"nginx", "caddy"} {
		t.Run(proxy, func(t *testing.T) { proxyRoutesByTable(t, proxy) })
	}
}

func proxyRoutesByTable(t *testing.T, proxy string) {
	needTool(t, proxy) // skipped before any node starts
	dsn := pgtest.DSN(t)
	addrs := make([]string, 3)
	metrics := make([]string, 3)
	for i := range addrs {
		n := &rollingNode{name: fmt.Sprint("n", i), addr: fmt.Sprintf("127.0.0.1:%d", freePort(t))}
		m := fmt.Sprintf("127.0.0.1:%d", freePort(t))
		n.extra = []string{"--metrics-addr", m}
		n.start(t, dsn)
		addrs[i], metrics[i] = n.addr, "http://"+m+"/metrics"
	}
	base := startProxy(t, proxy, addrs, freePort(t))
	const tables, actions = 30, 600
	loadPlayed(t, tables, actions, base)
	var followed float64
	for i, m := range metrics {
		followed += counter(t, m, "farkle_followed_actions_total", nil)
		if n := counter(t, m, "farkle_actions_total", map[string]string{"result": "accepted", "source": "player"}); n == 0 {
			t.Errorf("node %d accepted no action: the proxy sent it no table of %d", i, tables)
		}
	}
	if followed > maxFollowed(actions) {
		t.Errorf("the nodes followed %v of %d actions that another node took: the proxy split tables' players", followed, actions)
	}
}

// maxFollowed is how many of n actions the nodes may follow when every
// table's players are on one node: none, but for a table that a busy
// creator claimed more than a lease round after storing it, which another
// node took as an orphan and played until the first hint of its players'
// node (server/affinity.go). A table whose players are on two nodes has
// every action followed.
func maxFollowed(n int) float64 { return float64(n) / 50 }
