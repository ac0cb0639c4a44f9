package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/internal/syncbuf"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/store/postgres/pgtest"
)

// clusterNode is one farkle serve process of a cluster test.
type clusterNode struct {
	url    string
	cmd    *exec.Cmd
	stderr *syncbuf.Buffer
}

// startClusterNode starts the farkle binary as a node on the database at
// dsn, with the limits of one client address off (every test client is
// 127.0.0.1), and returns once it listens.
func startClusterNode(t *testing.T, dsn, name string) *clusterNode {
	t.Helper()
	n := &clusterNode{stderr: &syncbuf.Buffer{}}
	n.cmd, n.url, _ = spawnServe(t, n.stderr, "--db", dsn, "--node", name, "--lease", "2s",
		"--bot-delay", "20ms", "--rate-address", "0", "--rate-player", "0", "--ws-per-address", "0",
		"--ws-rate", "1000", "--ws-burst", "1000", "--ws-player-rate", "1000", "--ws-player-burst", "1000",
		"--max-bot-tables", "0", "--max-open-tables", "0")
	return n
}

// TestServeFarkleDB: without --db, serve opens the database FARKLE_DB
// names, and shows a PostgreSQL address without its password.
func TestServeFarkleDB(t *testing.T) {
	dsn := pgtest.DSN(t)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Skip("FARKLE_TEST_POSTGRES is not a URL")
	}
	if u.User == nil {
		u.User = url.UserPassword(os.Getenv("USER"), "")
	}
	u.User = url.UserPassword(u.User.Username(), "not-shown") // trust authentication ignores it
	t.Setenv("FARKLE_DB", u.String())
	_, base, line := spawnServe(t, io.Discard)
	if !strings.Contains(line, "database postgres://") || strings.Contains(line, "not-shown") {
		t.Fatalf("serve said %q: want the PostgreSQL address, without its password", line)
	}
	resp, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("/healthz: HTTP %d", resp.StatusCode)
	}
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(context.Background(), `SELECT n FROM health`).Scan(&n); err != nil || n < 1 {
		t.Fatalf("the health row in PostgreSQL: %d, %v (want it written by /healthz)", n, err)
	}
}

// cluster is the nodes of a test and which of them died.
type cluster struct {
	nodes []*clusterNode
	dead  atomic.Int32 // index+1 of the node killed, 0 before
}

// logs is what the nodes logged, one after another.
func (c *cluster) logs() string {
	var b strings.Builder
	for i, n := range c.nodes {
		fmt.Fprintf(&b, "node n%d:\n%s\n", i, n.stderr)
	}
	return b.String()
}

// alive returns the URL of the node at i, or of the next one alive.
func (c *cluster) alive(i int) string {
	for c.dead.Load() == int32(i%len(c.nodes))+1 {
		i++
	}
	return c.nodes[i%len(c.nodes)].url
}

// person plays a seat through a WebSocket on one node, moving to the next
// node when its node dies (as a load balancer would send it elsewhere).
// Until hold is closed it does not act past version 5 (nil: it never
// waits); the game waits for it. An error tells the last state seen and
// the client's last steps.
func (c *cluster) person(ctx context.Context, cl *wsclient.Client, node int, table string, hold <-chan struct{}) error {
	var tr trace
	connect := func() error {
		cl.Base = c.alive(node)
		tr.add("connect to %s", cl.Base)
		return cl.Connect(ctx, table)
	}
	if err := connect(); err != nil {
		return err
	}
	var last *wsclient.State
	seat, acted := -1, -1
	for {
		if last != nil && last.Phase == "over" {
			cl.Close()
			return nil
		}
		if last != nil && seat >= 0 && last.Actor == seat && last.Version >= 5 && hold != nil {
			tr.add("wait at version %d", last.Version) // the game waits too: no message comes meanwhile
			select {
			case <-hold:
			case <-ctx.Done():
				return ctx.Err()
			}
			hold = nil
		}
		if last != nil && seat >= 0 && last.Actor == seat && acted != last.Version {
			typ, d := wsclient.Choose(last)
			acted = last.Version
			tr.add("act %s %v on version %d", typ, d, acted)
			if err := cl.Act(ctx, last.Version, typ, d); err != nil {
				tr.add("act: %v", err)
				acted = -1
			}
		}
		m, err := cl.Next(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("%w (last seen: %s, seat %d, acted on %d; %s)", err, stateLine(last), seat, acted, &tr)
			}
			tr.add("read: %v", err)
			node++
			// As the browser page and farkle play --online do, it tries
			// again after a pause while a proxy has no node for it.
			for try := 1; ; try++ {
				err := connect()
				if err == nil {
					break
				}
				if try == 20 || ctx.Err() != nil {
					return fmt.Errorf("reconnect: %w", err)
				}
				tr.add("reconnect: %v", err)
				select {
				case <-time.After(100 * time.Millisecond):
				case <-ctx.Done():
				}
			}
			// What the lost node showed is not what the next one
			// knows: it may be behind, and refuse an action on it
			// before showing the same version again. Act on its
			// states only.
			last, acted = nil, -1
			continue
		}
		tr.got(m)
		if m.Type == "welcome" {
			seat = m.You.Seat
		}
		if m.State != nil {
			last = m.State
		}
		if m.Type == "error" {
			switch m.Code {
			case "server_error":
				acted = -1 // try again
			case "stale", "not_your_turn", "illegal": // another state is on its way
			default:
				return fmt.Errorf("refused: %s %s", m.Code, m.Message)
			}
		}
	}
}

// trace is a client's last steps, for the message of a test that fails.
type trace struct{ steps []string }

func (tr *trace) add(format string, args ...any) {
	if len(tr.steps) == 16 {
		tr.steps = tr.steps[1:]
	}
	tr.steps = append(tr.steps, time.Now().Format("15:04:05.000 ")+fmt.Sprintf(format, args...))
}

// got adds a message received.
func (tr *trace) got(m wsclient.Msg) {
	switch {
	case m.Type == "error":
		tr.add("got error %s: %s", m.Code, m.Message)
	case m.State != nil:
		tr.add("got %s: version %d, actor %d, step %s", m.Type, m.State.Version, m.State.Actor, m.State.Step)
	default:
		tr.add("got %s", m.Type)
	}
}

func (tr *trace) String() string { return "last steps:\n\t" + strings.Join(tr.steps, "\n\t") }

// stateLine is a state as a failing test tells it.
func stateLine(st *wsclient.State) string {
	if st == nil {
		return "no state"
	}
	return fmt.Sprintf("version %d, phase %s, step %s, actor %d, legal %v", st.Version, st.Phase, st.Step, st.Actor, st.Legal)
}

// watch follows a table on a node to the end of its game and returns the
// versions it saw; reached is called once the game passes version 5.
func watch(ctx context.Context, url, table string, reached func()) ([]int, error) {
	cl := wsclient.New(url)
	if err := cl.Connect(ctx, table); err != nil {
		return nil, err
	}
	defer cl.Close()
	var seen []int
	var last *wsclient.State
	var tr trace
	once := sync.Once{}
	defer once.Do(reached)
	for {
		m, err := cl.Next(ctx)
		if err != nil {
			return seen, fmt.Errorf("%w (last seen: %s; %s)", err, stateLine(last), &tr)
		}
		tr.got(m)
		if m.Type == "error" || m.Type == "failed" {
			return seen, fmt.Errorf("%s %s %s", m.Type, m.Code, m.Message)
		}
		if m.State == nil {
			continue
		}
		seen = append(seen, m.State.Version)
		last = m.State
		if m.State.Version >= 5 {
			once.Do(reached)
		}
		if m.State.Phase == "over" {
			return seen, nil
		}
	}
}

// TestServeCluster runs three farkle serve nodes on one PostgreSQL
// database: tables of bots only and tables of two people (on two different
// nodes) and a bot, each watched from a node that survives. Once every game
// is under way one node is killed (SIGKILL: its leases are not given up).
// The people on it move to another node; its bots are taken over. Every
// game ends; every record passes farkle verify; each table's stored actions
// are those its watcher saw, one version after another, none lost or
// doubled.
func TestServeCluster(t *testing.T) {
	dsn := pgtest.DSN(t)
	c := &cluster{}
	for _, name := range []string{"n0", "n1", "n2"} {
		c.nodes = append(c.nodes, startClusterNode(t, dsn, name))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	rules := map[string]any{"base": "classic", "game": map[string]any{"target": 1500}}
	const tables = 30
	var ids []string
	var wg sync.WaitGroup
	var reached sync.WaitGroup
	// The host of table 3 (on n0, the node killed) waits for the kill
	// past version 5: at least one game of n0 is unfinished when it dies.
	killed := make(chan struct{})
	errs := make(chan error, 4*tables)
	seen := make([][]int, tables)
	for i := range tables {
		node := i % 3
		host := wsclient.New(c.nodes[node].url)
		if _, _, err := host.NewPlayer(ctx, fmt.Sprint("Host", i)); err != nil {
			t.Fatal(err)
		}
		seats := []map[string]string{{"type": "bot", "level": "steady"}, {"type": "bot", "level": "cautious"}}
		people := i%2 == 1
		if people {
			seats = []map[string]string{{"type": "me"}, {"type": "human"}, {"type": "bot", "level": "steady"}}
		}
		tb, err := host.CreateTable(ctx, rules, seats...)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, tb.ID)
		reached.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			seen[i], err = watch(ctx, c.nodes[1+i%2].url, tb.ID, reached.Done)
			if err != nil {
				errs <- fmt.Errorf("watcher of %s: %w", tb.ID, err)
			}
		}()
		if !people {
			continue
		}
		guest := wsclient.New(c.nodes[(node+1)%3].url)
		if _, _, err := guest.NewPlayer(ctx, fmt.Sprint("Guest", i)); err != nil {
			t.Fatal(err)
		}
		if _, err := guest.Join(ctx, tb.ID); err != nil {
			t.Fatal(err)
		}
		for k, cl := range []*wsclient.Client{host, guest} {
			wg.Add(1)
			var hold chan struct{}
			if i == 3 && k == 0 {
				hold = killed
			}
			go func() {
				defer wg.Done()
				if err := c.person(ctx, cl, node+k, tb.ID, hold); err != nil {
					errs <- fmt.Errorf("player %d of %s: %w", k, tb.ID, err)
				}
			}()
		}
	}
	reached.Wait()
	c.dead.Store(1)
	if err := c.nodes[0].cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	killedAt := time.Now()
	close(killed)
	wg.Wait()
	t.Logf("every game ended %v after node n0 was killed", time.Since(killedAt).Round(time.Millisecond))
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		t.Fatalf("the nodes' logs:\n%s", c.logs())
	}
	dir := t.TempDir()
	for i, id := range ids {
		resp, err := http.Get(c.nodes[2].url + "/api/tables/" + id + "/record")
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("record of %s: HTTP %d %s", id, resp.StatusCode, data)
		}
		path := filepath.Join(dir, id+".json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if out, errOut, code := execFarkle(t, "", "verify", path); code != 0 {
			t.Errorf("farkle verify %s: exit %d: %s%s", id, code, out, errOut)
		}
		rec, err := game.ParseRecord(data)
		if err != nil {
			t.Fatal(err)
		}
		// The watcher saw one version after another up to the last
		// action stored: every action, in order, once.
		s := seen[i]
		for k := 1; k < len(s); k++ {
			if s[k] != s[k-1]+1 {
				t.Errorf("table %s: the watcher's versions jump from %d to %d", id, s[k-1], s[k])
			}
		}
		if len(s) == 0 || s[len(s)-1] != len(rec.Actions) {
			t.Errorf("table %s: the watcher saw up to version %v, the record has %d actions", id, s[len(s)-1:], len(rec.Actions))
		}
	}
	// The killed node's tables were taken over by the others.
	takeovers := strings.Count(c.nodes[1].stderr.String()+c.nodes[2].stderr.String(), "table taken over")
	if takeovers == 0 {
		t.Error("no table was taken over from the killed node")
	}
	t.Logf("%d tables taken over", takeovers)
	if t.Failed() {
		t.Logf("the nodes' logs:\n%s", c.logs())
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatal("the cluster took too long")
	}
}
