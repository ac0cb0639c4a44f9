package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/server/wsclient"
)

// startServe runs the built binary's serve command on 127.0.0.1:0 (without
// a metrics listener unless extra flags ask for one) and returns the
// process and its URL.
func startServe(t *testing.T, db string, extra ...string) (*exec.Cmd, string) {
	cmd, base, _ := startServeLine(t, db, extra...)
	return cmd, base
}

// startServeLine is startServe also returning the line serve printed.
func startServeLine(t *testing.T, db string, extra ...string) (*exec.Cmd, string, string) {
	t.Helper()
	return spawnServe(t, io.Discard, append([]string{"--db", db}, extra...)...)
}

// startServeLines runs serve as startServe does and returns the first n
// lines it printed.
func startServeLines(t *testing.T, db string, n int, extra ...string) (*exec.Cmd, []string) {
	t.Helper()
	return spawnServeLines(t, io.Discard, n, append([]string{"--db", db}, extra...)...)
}

// spawnServe runs the built binary's serve command on 127.0.0.1:0 with
// the flags, its stderr to stderr, and returns the process, its URL and
// the line it printed.
func spawnServe(t *testing.T, stderr io.Writer, flags ...string) (*exec.Cmd, string, string) {
	t.Helper()
	cmd, lines := spawnServeLines(t, stderr, 1, flags...)
	f := strings.Fields(lines[0])
	if len(f) < 3 || !strings.HasPrefix(f[2], "http://") {
		t.Fatalf("serve printed %q", lines[0])
	}
	return cmd, f[2], lines[0]
}

// spawnServeLines is spawnServe returning the first n lines serve printed.
func spawnServeLines(t *testing.T, stderr io.Writer, n int, flags ...string) (*exec.Cmd, []string) {
	t.Helper()
	if farkleBuildErr != nil {
		t.Fatal(farkleBuildErr)
	}
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--bot-delay", "1h", "--metrics-addr", ""}, flags...)
	cmd := exec.Command(farkleBin, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	rd := bufio.NewReader(out)
	lines := make([]string, n)
	for i := range lines {
		if lines[i], err = rd.ReadString('\n'); err != nil {
			t.Fatalf("serve printed %q, then: %v", lines[:i], err)
		}
	}
	go io.Copy(io.Discard, rd)
	return cmd, lines
}

func tableState(t *testing.T, base, id string) string {
	t.Helper()
	var out struct{ State json.RawMessage }
	if err := wsclient.New(base).Do(context.Background(), "GET", "/api/tables/"+id, nil, &out); err != nil {
		t.Fatal(err)
	}
	return string(out.State)
}

// TestServeSurvivesSIGKILL plays part of a game, kills the server with
// SIGKILL, starts it again on the same database and finds the table
// exactly as it was; SIGTERM then stops it cleanly.
func TestServeSurvivesSIGKILL(t *testing.T) {
	db := filepath.Join(t.TempDir(), "farkle.db")
	cmd, base := startServe(t, db)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := wsclient.New(base)
	if _, _, err := c.NewPlayer(ctx, "Ann"); err != nil {
		t.Fatal(err)
	}
	tb, err := c.CreateTable(ctx, map[string]any{"base": "classic", "game": map[string]any{"target": 2000}},
		map[string]string{"type": "me"}, map[string]string{"type": "bot", "level": "steady"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	m, err := c.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st := m.State
	played := 0
	for st.Actor == 0 && st.Phase != "over" && played < 12 {
		typ, dice := "throw", []int(nil)
		for _, l := range st.Legal {
			if l.Type == "keep" || l.Type == "roll-off" {
				typ, dice = l.Type, l.Dice
				break
			}
		}
		if err := c.Act(ctx, st.Version, typ, dice); err != nil {
			t.Fatal(err)
		}
		if m, err = c.Next(ctx); err != nil || m.Type != "update" {
			t.Fatalf("%s %s %v", m.Type, m.Message, err)
		}
		st = m.State
		played++
	}
	if played == 0 {
		t.Fatal("no action played")
	}
	before := tableState(t, base, tb.ID)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	cmd2, base2 := startServe(t, db)
	after := tableState(t, base2, tb.ID)
	if before != after {
		t.Fatalf("after SIGKILL and a restart the state differs:\n%s\n%s", before, after)
	}
	// The record so far replays to that state with the dice the seed gives.
	resp, err := http.Get(base2 + "/api/tables/" + tb.ID + "/record")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	rec, err := game.ParseRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Actions) != st.Version || rec.Seed != "" {
		t.Fatalf("record has %d actions (want %d) and seed %q (want none before the end)", len(rec.Actions), st.Version, rec.Seed)
	}
	if err := cmd2.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd2.Wait(); err != nil {
		t.Fatalf("after SIGTERM: %v (want a clean exit)", err)
	}
}

// TestServeMainRunClose starts the whole server in-process on :0.
func TestServeMainRunClose(t *testing.T) {
	m := &serveMain{Addr: "127.0.0.1:0", DB: filepath.Join(t.TempDir(), "x.db"), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(m.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("healthz: %d", resp.StatusCode)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get(m.URL + "/healthz"); err == nil {
		t.Fatal("still serving after Close")
	}
}

func TestServeBadFlags(t *testing.T) {
	_, stderr, code := runFarkle(t, "", "serve", "--rules", "nope")
	checkBadInput(t, stderr, code, "nope")
	_, stderr, code = runFarkle(t, "", "serve", "extra")
	checkBadInput(t, stderr, code, "extra")
}

func TestServeBadEdgeFlags(t *testing.T) {
	for _, tc := range [][]string{
		{"--public-url", "ftp://x.example", "ftp://x.example"},
		{"--public-url", "https://x.example/game", "no path"},
		{"--trusted-proxies", "10.0.0.0/8,nonsense", "nonsense"},
		{"--rate-address", "-1", "--rate-address -1"},
		{"--burst-player", "0", "--burst-player 0"},
		{"--read-timeout", "0s", "--read-timeout 0s"},
		{"--ws-max", "-2", "--ws-max -2"},
		{"--max-header-bytes", "100", "at least 4096"},
	} {
		_, stderr, code := runFarkle(t, "", "serve", "--db", filepath.Join(t.TempDir(), "x.db"), tc[0], tc[1])
		checkBadInput(t, stderr, code, tc[2])
	}
}

// TestServeMetricsListener: /metrics is served on its own listener and
// not on the public one; a taken metrics port is a clear error.
func TestServeMetricsListener(t *testing.T) {
	_, base, line := startServeLine(t, filepath.Join(t.TempDir(), "farkle.db"), "--metrics-addr", "127.0.0.1:0")
	f := strings.Fields(line)
	metrics := strings.TrimSuffix(f[len(f)-1], ")")
	if !strings.HasPrefix(metrics, "http://127.0.0.1:") || !strings.HasSuffix(metrics, "/metrics") {
		t.Fatalf("serve printed %q: no metrics URL", line)
	}
	get := func(url string) (int, string) {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get(metrics); code != 200 || !strings.Contains(body, "farkle_connected_clients 0") || !strings.Contains(body, "farkle_http_refused_total") {
		t.Fatalf("metrics listener: %d %.200s", code, body)
	}
	if code, _ := get(base + "/metrics"); code != 404 {
		t.Fatalf("/metrics on the public listener: %d, want 404", code)
	}
	if code, _ := get(base + "/healthz"); code != 200 {
		t.Fatalf("/healthz: %d", code)
	}
	metricsBase := strings.TrimSuffix(metrics, "/metrics")
	if code, _ := get(metricsBase + "/debug/pprof/"); code != 404 {
		t.Fatalf("profiles served without --pprof: %d, want 404", code)
	}

	// --pprof: Go's profiles on the metrics listener, never on the public one.
	_, base, line = startServeLine(t, filepath.Join(t.TempDir(), "farkle.db"), "--metrics-addr", "127.0.0.1:0", "--pprof")
	f = strings.Fields(line)
	metricsBase = strings.TrimSuffix(strings.TrimSuffix(f[len(f)-1], ")"), "/metrics")
	if code, body := get(metricsBase + "/debug/pprof/"); code != 200 || !strings.Contains(body, "goroutine") {
		t.Fatalf("--pprof: /debug/pprof/ %d %.200s", code, body)
	}
	if code, body := get(metricsBase + "/debug/pprof/profile?seconds=1"); code != 200 || len(body) == 0 {
		t.Fatalf("--pprof: a CPU profile: %d, %d bytes", code, len(body))
	}
	for _, path := range []string{"/debug/pprof/", "/debug/pprof/profile?seconds=1"} {
		if code, _ := get(base + path); code != 404 {
			t.Fatalf("%s on the public listener: %d, want 404", path, code)
		}
	}

	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	m := &serveMain{Addr: "127.0.0.1:0", DB: filepath.Join(t.TempDir(), "x.db"), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Edge: serveEdge{MetricsAddr: taken.Addr().String()}}
	err = m.Run(context.Background())
	if err == nil {
		m.Close()
		t.Fatal("serve started with its metrics port taken")
	}
	if !strings.Contains(err.Error(), "listen for metrics on "+taken.Addr().String()) || !strings.Contains(err.Error(), `--metrics-addr ""`) {
		t.Fatalf("metrics port taken: %v", err)
	}

	// Left at its default (the quick start's `farkle serve`), a taken
	// metrics port does not stop the game: it is served without metrics.
	m = runEdge(t, serveEdge{MetricsAddr: taken.Addr().String(), MetricsOptional: true})
	if m.MetricsURL != "" {
		t.Fatalf("metrics at %s on a taken port", m.MetricsURL)
	}
	if code, _ := get(m.URL + "/healthz"); code != 200 {
		t.Fatalf("/healthz without metrics: %d", code)
	}
}

// runEdge starts the whole server in-process on 127.0.0.1:0 with the edge.
func runEdge(t *testing.T, edge serveEdge) *serveMain {
	t.Helper()
	m := &serveMain{Addr: "127.0.0.1:0", DB: filepath.Join(t.TempDir(), "x.db"), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Edge: edge}
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// closedWithin reads conn until the server closes it and returns how long
// that took from start and what was read, or fails after limit.
func closedWithin(t *testing.T, conn io.Reader, start time.Time, limit time.Duration) (time.Duration, string) {
	t.Helper()
	done := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(conn) // until EOF or reset
		done <- string(b)
	}()
	select {
	case got := <-done:
		return time.Since(start), got
	case <-time.After(limit):
		t.Fatalf("the connection is still open after %s", limit)
		return 0, ""
	}
}

// TestServeCutsOffSlowBody: a body sent a byte every 200 ms is cut off
// within the read timeout (1 s), not held open as long as the client likes.
func TestServeCutsOffSlowBody(t *testing.T) {
	m := runEdge(t, serveEdge{ReadTimeout: time.Second})
	conn, err := net.Dial("tcp", strings.TrimPrefix(m.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	body := `{"name":"` + strings.Repeat("x", 20) + `"}`
	fmt.Fprintf(conn, "POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body))
	stop := make(chan struct{})
	defer close(stop)
	go func() { // the slow sender: one byte every 200 ms, 6 s for the whole body
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for i := 0; i < len(body); i++ {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := conn.Write([]byte{body[i]}); err != nil {
					return
				}
			}
		}
	}()
	took, answer := closedWithin(t, conn, start, 4*time.Second)
	if took < 800*time.Millisecond || took > 2500*time.Millisecond {
		t.Errorf("closed after %s, want about the read timeout (1 s)", took)
	}
	if answer != "" && (!strings.Contains(answer, "400 Bad Request") || !strings.Contains(answer, "the body came too slowly")) {
		t.Errorf("the answer before the close: %q", answer)
	}
	t.Logf("a body at a byte every 200 ms was cut off after %s: %q", took.Round(time.Millisecond), answer)
}

// TestServeClosesIdleConnections: a kept-alive connection left idle is
// closed after the idle timeout.
func TestServeClosesIdleConnections(t *testing.T) {
	m := runEdge(t, serveEdge{IdleTimeout: 500 * time.Millisecond})
	conn, err := net.Dial("tcp", strings.TrimPrefix(m.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
	rd := bufio.NewReader(conn)
	resp, err := http.ReadResponse(rd, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Close {
		t.Fatalf("healthz: %d close=%v, want 200 kept alive", resp.StatusCode, resp.Close)
	}
	idle := time.Now()
	took, rest := closedWithin(t, rd, idle, 4*time.Second)
	if took < 400*time.Millisecond || took > 2*time.Second || rest != "" {
		t.Errorf("the idle connection closed after %s (%q), want about 500 ms", took, rest)
	}
}

// TestServeWebSocketOutlivesTimeouts: the read and write timeouts are for
// requests; a table's WebSocket stays open and usable past both.
func TestServeWebSocketOutlivesTimeouts(t *testing.T) {
	m := runEdge(t, serveEdge{ReadTimeout: 300 * time.Millisecond, WriteTimeout: 300 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := wsclient.New(m.URL)
	if _, _, err := c.NewPlayer(ctx, "Ann"); err != nil {
		t.Fatal(err)
	}
	tb, err := c.CreateTable(ctx, nil, map[string]string{"type": "me"}, map[string]string{"type": "human"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Connect(ctx, tb.ID); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if m, err := c.Next(ctx); err != nil || m.Type != "welcome" {
		t.Fatalf("welcome: %v %v", m.Type, err)
	}
	for i := range 3 {
		<-time.After(400 * time.Millisecond) // past both timeouts: the point of the test is time passing
		if err := c.Send(ctx, map[string]string{"type": "ping", "id": fmt.Sprint(i)}); err != nil {
			t.Fatalf("ping %d after %d ms: %v", i, 400*(i+1), err)
		}
		msg, err := c.Next(ctx)
		if err != nil || msg.Type != "pong" || msg.ID != fmt.Sprint(i) {
			t.Fatalf("pong %d after %d ms: %+v %v", i, 400*(i+1), msg, err)
		}
	}
}

// TestServeCutsOffSlowHeaders: headers trickled a byte every 100 ms are cut
// off at the header timeout; headers over the size cap get 431.
func TestServeCutsOffSlowHeaders(t *testing.T) {
	m := runEdge(t, serveEdge{ReadHeaderTimeout: 500 * time.Millisecond, MaxHeaderBytes: 4096})
	conn, err := net.Dial("tcp", strings.TrimPrefix(m.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	head := "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + strings.Repeat("z", 100) + "\r\n\r\n"
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for i := 0; i < len(head); i++ {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := conn.Write([]byte{head[i]}); err != nil {
					return
				}
			}
		}
	}()
	if took, _ := closedWithin(t, conn, start, 4*time.Second); took < 400*time.Millisecond || took > 2*time.Second {
		t.Errorf("slow headers cut off after %s, want about 500 ms", took)
	}

	req, _ := http.NewRequest("GET", m.URL+"/healthz", nil)
	req.Header.Set("X-Big", strings.Repeat("b", 8<<10))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("8 KiB of headers over a 4 KiB cap: HTTP %d, want 431", resp.StatusCode)
	}
}
