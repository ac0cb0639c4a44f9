package main

import (
	"context"
	"fmt"
	"github.com/farkle/farkle/internal/testflags"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/internal/syncbuf"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/store/postgres/pgtest"
)

// needTool returns the path of a program a test drives; without it the
// test is skipped, unless under CI (.ci/run installs it).
func needTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		for _, dir := range []string{"/usr/sbin", "/sbin"} {
			if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
				return filepath.Join(dir, name)
			}
		}
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed (.ci/run installs it)", name)
		}
		t.Skipf("%s is not installed (apt-get install %s)", name, name)
	}
	return p
}

// freePort returns a TCP port free on 127.0.0.1 now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// deployFile reads a file of docs/deploy with the guide's example node
// addresses (127.0.0.1:8081…8083) replaced by nodes.
func deployFile(t *testing.T, name string, nodes []string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "deploy", name))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for i, n := range nodes {
		example := fmt.Sprintf("127.0.0.1:%d", 8081+i)
		if !strings.Contains(s, example) {
			t.Fatalf("docs/deploy/%s names no node %s", name, example)
		}
		s = strings.ReplaceAll(s, example, n)
	}
	return s
}

// startProxy runs the reverse proxy (nginx or caddy) of docs/deploy in
// front of nodes, listening on 127.0.0.1:port, and returns its URL once it
// answers /healthz.
func startProxy(t *testing.T, kind string, nodes []string, port int) string {
	t.Helper()
	dir := t.TempDir()
	listen := fmt.Sprintf("127.0.0.1:%d", port)
	var cmd *exec.Cmd
	switch kind {
	case "nginx":
		bin := needTool(t, "nginx")
		site := deployFile(t, "nginx.conf", nodes)
		site = strings.Replace(site, "listen 80;", "listen "+listen+";", 1)
		if err := os.WriteFile(filepath.Join(dir, "site.conf"), []byte(site), 0o644); err != nil {
			t.Fatal(err)
		}
		// The main configuration of a process of the test's own: in the
		// foreground, one process, its files in dir.
		main := fmt.Sprintf(`daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log warn;
events { worker_connections 1024; }
http {
	access_log off;
	client_body_temp_path %[1]s/body;
	proxy_temp_path %[1]s/proxy;
	fastcgi_temp_path %[1]s/fastcgi;
	uwsgi_temp_path %[1]s/uwsgi;
	scgi_temp_path %[1]s/scgi;
	include %[1]s/site.conf;
}
`, dir)
		conf := filepath.Join(dir, "nginx.conf")
		if err := os.WriteFile(conf, []byte(main), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(bin, "-t", "-p", dir, "-e", filepath.Join(dir, "error.log"), "-c", conf).CombinedOutput(); err != nil {
			t.Fatalf("nginx -t: %v\n%s", err, out)
		}
		cmd = exec.Command(bin, "-p", dir, "-e", filepath.Join(dir, "error.log"), "-c", conf)
	case "caddy":
		bin := needTool(t, "caddy")
		site := deployFile(t, "Caddyfile", nodes)
		site = strings.Replace(site, "farkle.example.org {", "http://"+listen+" {", 1)
		// The test's global options: no admin endpoint, no certificates.
		site = "{\n\tadmin off\n\tauto_https off\n\tstorage file_system " + dir + "\n}\n" + site
		conf := filepath.Join(dir, "Caddyfile")
		if err := os.WriteFile(conf, []byte(site), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd = exec.Command(bin, "run", "--adapter", "caddyfile", "--config", conf)
		cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	}
	logs := &syncbuf.Buffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	base := "http://" + listen
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return base
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s does not answer on %s: %v\n%s", kind, listen, err, logs)
		}
		time.Sleep(50 * time.Millisecond) // polling a process that starts: no event to wait on
	}
}

// rollingNode is one node of a rolling restart: its address stays the
// same across restarts, as the proxy knows it.
type rollingNode struct {
	name, addr string
	cmd        *exec.Cmd
	stderr     *syncbuf.Buffer
	logs       []string // what earlier runs logged
	extra      []string // more flags of serve
}

func (n *rollingNode) start(t *testing.T, dsn string) {
	t.Helper()
	n.stderr = &syncbuf.Buffer{}
	n.cmd, _, _ = spawnServe(t, n.stderr, append([]string{"--addr", n.addr, "--db", dsn, "--node", n.name,
		"--bot-delay", "40ms", "--rate-address", "0", "--rate-player", "0", "--ws-per-address", "0",
		"--ws-rate", "1000", "--ws-burst", "1000", "--ws-player-rate", "1000", "--ws-player-burst", "1000",
		"--max-bot-tables", "0", "--max-open-tables", "0", "--trusted-proxies", "127.0.0.1"}, n.extra...)...)
}

// stop sends SIGTERM and waits for the node to exit.
func (n *rollingNode) stop(t *testing.T) {
	t.Helper()
	if err := n.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := n.cmd.Wait(); err != nil {
		t.Errorf("node %s after SIGTERM: %v\n%s", n.name, err, n.stderr)
	}
	n.logs = append(n.logs, n.stderr.String())
}

// progress follows a table through the proxy to the end of its game,
// connecting again whenever the connection ends (as the browser page
// does), and returns the longest time the game stood still: between two
// moments it was seen at a version and then at a later one.
func progress(ctx context.Context, base, table string) (stall, error) {
	var longest stall
	last, seenAt := -1, time.Now()
	var tr trace
	for {
		cl := wsclient.New(base)
		if err := cl.Connect(ctx, table); err != nil {
			if ctx.Err() != nil {
				return longest, fmt.Errorf("connect: %w (%s)", err, &tr)
			}
			tr.add("connect: %v", err)
			select { // a pause before trying again, as the browser page makes
			case <-time.After(100 * time.Millisecond):
			case <-ctx.Done():
			}
			continue
		}
		for {
			m, err := cl.Next(ctx)
			if err != nil {
				tr.add("read: %v", err)
				break
			}
			tr.got(m)
			if m.State == nil {
				continue
			}
			if v := m.State.Version; v > last {
				if d := time.Since(seenAt); last >= 0 && d > longest.d {
					longest = stall{d: d, from: seenAt, version: last}
				}
				last, seenAt = v, time.Now()
			}
			if m.State.Phase == "over" {
				cl.Close()
				return longest, nil
			}
		}
		cl.Close()
		if ctx.Err() != nil {
			return longest, fmt.Errorf("%w (%s)", ctx.Err(), &tr)
		}
	}
}

// stall is the longest a game stood still: d from the moment it was seen
// at version.
type stall struct {
	d       time.Duration
	from    time.Time
	version int
}

// TestRollingRestart runs three nodes on one PostgreSQL database behind a
// real reverse proxy (nginx, then Caddy, each with its configuration in
// docs/deploy), plays bot games and games of two people through the
// proxy, and restarts each node in turn with SIGTERM while they play. The
// stopping node hands its leases off and tells its clients to reconnect;
// they reconnect through the proxy to another node. Every game ends, every
// record verifies, and no game stands still for more than 2 s.
func TestRollingRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("three nodes and a proxy: not in -short")
	}
	for i, proxy := range []string{"nginx", "caddy"} {
		t.Run(proxy, func(t *testing.T) {
			testflags.SkipVariantUnlessLong(t, i) // Caddy with -long: the test costs 6 s of CPU a proxy
			rollingRestart(t, proxy)
		})
	}
}

func rollingRestart(t *testing.T, proxy string) {
	dsn := pgtest.DSN(t)
	nodes := make([]*rollingNode, 3)
	addrs := make([]string, 3)
	for i := range nodes {
		nodes[i] = &rollingNode{name: fmt.Sprint("n", i), addr: fmt.Sprintf("127.0.0.1:%d", freePort(t))}
		addrs[i] = nodes[i].addr
		nodes[i].start(t, dsn)
	}
	base := startProxy(t, proxy, addrs, freePort(t))
	logs := func() string {
		var b strings.Builder
		for _, n := range nodes {
			fmt.Fprintf(&b, "node %s:\n%s%s\n", n.name, strings.Join(n.logs, "--- restarted ---\n"), n.stderr)
		}
		return b.String()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	rules := map[string]any{"base": "classic", "game": map[string]any{"target": 6000}}
	const tables = 12
	var wg sync.WaitGroup
	errs := make(chan error, 3*tables)
	waits := make([]stall, tables)
	ids := make([]string, tables)
	started := make(chan struct{}, tables)
	for i := range tables {
		host := wsclient.New(base)
		if _, _, err := host.NewPlayer(ctx, fmt.Sprint("Host", i)); err != nil {
			t.Fatal(err)
		}
		people := i%3 == 0
		seats := []map[string]string{{"type": "bot", "level": "steady"}, {"type": "bot", "level": "cautious"}}
		if people {
			seats = []map[string]string{{"type": "me"}, {"type": "human"}, {"type": "bot", "level": "steady"}}
		}
		tb, err := host.CreateTable(ctx, rules, seats...)
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = tb.ID
		wg.Add(1)
		go func() {
			defer wg.Done()
			started <- struct{}{}
			var err error
			if waits[i], err = progress(ctx, base, tb.ID); err != nil {
				errs <- fmt.Errorf("watcher of %s: %w", tb.ID, err)
			}
		}()
		if !people {
			continue
		}
		guest := seatGuest(ctx, t, base, fmt.Sprint("Guest", i), tb.ID)
		// The people play through the proxy: one "node" that the
		// proxy maps to a live one.
		c := &cluster{nodes: []*clusterNode{{url: base}}}
		for k, cl := range []*wsclient.Client{host, guest} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := c.person(ctx, cl, 0, tb.ID, nil); err != nil {
					errs <- fmt.Errorf("player %d of %s: %w", k, tb.ID, err)
				}
			}()
		}
	}
	for range tables {
		<-started
	}
	// Restart each node in turn while the games play.
	var restarts []time.Duration
	for _, n := range nodes {
		at := time.Now()
		n.stop(t)
		n.start(t, dsn)
		restarts = append(restarts, time.Since(at))
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		t.Fatalf("the nodes' logs:\n%s", logs())
	}
	var longest time.Duration
	for i, w := range waits {
		longest = max(longest, w.d)
		if w.d > 2*time.Second {
			t.Errorf("table %s stood still for %v from %s at version %d", ids[i], w.d, w.from.Format("15:04:05.000"), w.version)
		}
	}
	t.Logf("%s: restarts took %v; the longest a game stood still: %v", proxy, restarts, longest.Round(time.Millisecond))
	all := logs()
	if !strings.Contains(all, "lease handed off") || !strings.Contains(all, "event=lease_moved") {
		t.Errorf("no node logged a lease handed off")
	}
	dir := t.TempDir()
	for _, id := range ids {
		resp, err := http.Get(base + "/api/tables/" + id + "/record")
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("record of %s: HTTP %d %s", id, resp.StatusCode, data)
		}
		if _, err := game.ParseRecord(data); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, id+".json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if out, errOut, code := execFarkle(t, "", "verify", path); code != 0 {
			t.Errorf("farkle verify %s: exit %d: %s%s", id, code, out, errOut)
		}
	}
	if out, errOut, code := execFarkle(t, "", "db", "check", dsn); code != 0 {
		t.Errorf("db check after the rolling restart: exit %d: %s%s", code, out, errOut)
	}
	if t.Failed() {
		t.Logf("the nodes' logs:\n%s", logs())
	}
}

// TestSIGTERMSaysReconnect: a node stopping sends each WebSocket client
// the reconnect message of docs/API.md before closing its connection, and
// logs the shutdown as an operator's event.
func TestSIGTERMSaysReconnect(t *testing.T) {
	stderr := &syncbuf.Buffer{}
	cmd, base, _ := spawnServe(t, stderr, "--db", filepath.Join(t.TempDir(), "farkle.db"))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := wsclient.New(base)
	if _, _, err := c.NewPlayer(ctx, "Ann"); err != nil {
		t.Fatal(err)
	}
	tb, err := c.CreateTable(ctx, map[string]any{"base": "classic"}, map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "steady"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	if m, err := c.Next(ctx); err != nil || m.Type != "welcome" {
		t.Fatalf("first message: %+v, %v", m, err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		m, err := c.Next(ctx)
		if err != nil {
			if !strings.Contains(err.Error(), "1012") && !strings.Contains(err.Error(), "ServiceRestart") {
				t.Errorf("the connection ended with %v, want 1012 (service restart)", err)
			}
			break
		}
		got = append(got, m.Type)
	}
	if len(got) == 0 || got[len(got)-1] != "reconnect" {
		t.Errorf("messages after SIGTERM: %v, want the last to be reconnect", got)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve after SIGTERM: %v", err)
	}
	if !strings.Contains(stderr.String(), "event=shutdown") {
		t.Errorf("no shutdown event logged:\n%s", stderr)
	}
}

// seatGuest makes a guest named name at the server base and sits it at the
// table's free seat.
func seatGuest(ctx context.Context, t *testing.T, base, name, table string) *wsclient.Client {
	t.Helper()
	guest := wsclient.New(base)
	if _, _, err := guest.NewPlayer(ctx, name); err != nil {
		t.Fatal(err)
	}
	if _, err := guest.Join(ctx, table); err != nil {
		t.Fatal(err)
	}
	return guest
}
