package loadgen

import (
	"fmt"
	"hash/fnv"

	"github.com/farkle/farkle/server/wsclient"
)

// How a run spreads a table's requests over the servers given (a
// cluster's nodes), as the load balancer in front of them would.
const (
	// RouteSpread sends each player of a pair to its own server, one
	// after the other: a balancer without sticky sessions. A table's
	// two players are on two nodes, each following the other's actions.
	RouteSpread = "spread"
	// RouteTable sends every request naming a table (its join, its
	// WebSockets) to one server chosen from the table's ID
	// (TableServer), and the rest (guests, a new table) as RouteSpread
	// does: a balancer hashing the table's ID in the path
	// (docs/deploy/nginx.conf). A table's players are on one node.
	RouteTable = "table"
)

// checkRoute says what is wrong with a route's name.
func checkRoute(route string) error {
	switch route {
	case "", RouteSpread, RouteTable:
		return nil
	}
	return fmt.Errorf("route: %q is neither %s nor %s", route, RouteSpread, RouteTable)
}

// TableServer returns the server of servers that RouteTable sends the
// table's requests to: its ID's FNV-1a hash modulo their number.
func TableServer(table string, servers []string) string {
	h := fnv.New32a()
	h.Write([]byte(table))
	return servers[h.Sum32()%uint32(len(servers))]
}

// atServer returns a client of the same player as c on server base, or c
// itself if it is there already.
func atServer(c *wsclient.Client, base string) *wsclient.Client {
	if c.Base == base {
		return c
	}
	d := *c
	d.Base, d.Conn = base, nil
	return &d
}
