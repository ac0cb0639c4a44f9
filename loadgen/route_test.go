package loadgen

import (
	"fmt"
	"testing"
)

// TableServer sends every table to one of the servers given, the same
// one each time it is asked, and spreads tables over all of them about
// evenly (1,000 table IDs of the server's shape over 1 to 5 servers: each
// server gets at least half its share); one server gets every table.
func TestTableServer(t *testing.T) {
	for n := 1; n <= 5; n++ {
		servers := make([]string, n)
		for i := range servers {
			servers[i] = fmt.Sprintf("http://127.0.0.1:%d", 8081+i)
		}
		count := map[string]int{}
		for k := range 1000 {
			id := fmt.Sprintf("%016x", uint64(k)*0x9e3779b97f4a7c15)
			s := TableServer(id, servers)
			if again := TableServer(id, servers); again != s {
				t.Fatalf("table %s: %s, then %s", id, s, again)
			}
			count[s]++
		}
		for _, s := range servers {
			if count[s] < 1000/n/2 {
				t.Errorf("%d servers: %s got %d of 1000 tables", n, s, count[s])
			}
		}
		if len(count) != n {
			t.Errorf("%d servers: tables sent to %d addresses (%v)", n, len(count), count)
		}
	}
}

// A route that is neither spread nor table is refused, naming the field.
func TestCheckRoute(t *testing.T) {
	for _, r := range []string{"", RouteSpread, RouteTable} {
		if err := checkRoute(r); err != nil {
			t.Errorf("%q: %v", r, err)
		}
	}
	for _, r := range []string{"sticky", "Table", " table"} {
		if err := checkRoute(r); err == nil {
			t.Errorf("%q accepted", r)
		}
	}
}
