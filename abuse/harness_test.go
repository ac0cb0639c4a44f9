package abuse

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/farkle/farkle/internal/syncbuf"
)

// farkleBin is the binary built once for the whole suite.
var farkleBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "farkle-abuse")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	farkleBin = filepath.Join(dir, "farkle")
	build := exec.Command("go", "build", "-o", farkleBin, "github.com/farkle/farkle/cmd/farkle")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "abuse: building farkle:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// statSources looks at every file the binary is built from, once a run:
// go test caches a package's result by its test binary and the files its
// tests looked at, and this package's own binary does not change when the
// server does. Looked at, they are inputs: a change to any of them runs the
// suite again instead of reusing a result of an older server.
var statSources sync.Once

func statSourcesOf(t testing.TB, root string) {
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".mod", ".sum", ".sql", ".toml", ".js", ".css", ".html", ".svg":
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// server is one `farkle serve` process on a database of the test's.
type server struct {
	t    testing.TB
	db   string
	args []string
	cmd  *exec.Cmd
	log  *syncbuf.Buffer
	URL  string
	// Metrics is the metrics listener's base URL, when the test asked for
	// one (--metrics-addr 127.0.0.1:0).
	Metrics string
	// SSH is the SSH listener's address, when the test asked for one
	// (--ssh 127.0.0.1:0).
	SSH  string
	done chan error // the process's exit
}

// quiet are the flags every server of the suite gets besides its own: a
// loopback address picked by the kernel, no metrics listener, no bot pause.
var quiet = []string{"--addr", "127.0.0.1:0", "--metrics-addr", "", "--bot-delay", "0s"}

// startServer runs `farkle serve` on db with args and waits until it
// listens.
func startServer(t testing.TB, db string, args ...string) *server {
	t.Helper()
	statSources.Do(func() { statSourcesOf(t, "..") })
	s := &server{t: t, db: db, args: args}
	if err := s.start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.kill() })
	return s
}

// start starts the process; it returns the error of a process that exits
// before it listens (with what it printed).
func (s *server) start() error {
	args := append([]string{"serve", "--db", s.db}, quiet...)
	s.cmd = exec.Command(farkleBin, append(args, s.args...)...)
	s.log = &syncbuf.Buffer{}
	s.cmd.Stderr = s.log
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := s.cmd.Start(); err != nil {
		return err
	}
	s.done = make(chan error, 1)
	br := bufio.NewReader(out)
	line, rerr := br.ReadString('\n')
	if rerr == nil && slices.Contains(s.args, "--ssh") {
		// "farkle: ssh on ADDR (host key …)" follows the first line.
		ssh, err := br.ReadString('\n')
		if f := strings.Fields(ssh); err == nil && len(f) > 3 && f[1] == "ssh" {
			s.SSH = f[3]
		}
	}
	go func() {
		io.Copy(io.Discard, br)
		s.done <- s.cmd.Wait()
	}()
	f := strings.Fields(line)
	if rerr != nil || len(f) < 3 || !strings.HasPrefix(f[2], "http://") {
		err := <-s.done
		return fmt.Errorf("farkle serve did not start (%v, %v): %q\n%s", rerr, err, line, s.log.String())
	}
	s.URL = f[2]
	if i := strings.Index(line, "metrics at "); i >= 0 {
		s.Metrics = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(line[i+len("metrics at "):]), ")"), "/metrics")
	}
	return nil
}

// kill stops the process at once (SIGKILL) if it runs.
func (s *server) kill() {
	if s.cmd == nil || s.cmd.ProcessState != nil {
		return
	}
	s.cmd.Process.Kill()
	<-s.done
}

// stop sends SIGTERM and waits for a clean exit.
func (s *server) stop() {
	s.t.Helper()
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.done:
		if err != nil {
			s.t.Fatalf("farkle serve did not stop cleanly: %v\n%s", err, s.log.String())
		}
	case <-time.After(30 * time.Second):
		s.t.Fatalf("farkle serve ignored SIGTERM for 30 s\n%s", s.log.String())
	}
}

// restart stops the server cleanly and starts it again on the same
// database: every attack must leave a database that starts.
func (s *server) restart() {
	s.t.Helper()
	s.stop()
	if err := s.start(); err != nil {
		s.t.Fatal(err)
	}
}

// alive fails the test unless the process runs and /healthz answers 200.
func (s *server) alive() {
	s.t.Helper()
	select {
	case err := <-s.done:
		s.t.Fatalf("farkle serve died: %v\n%s", err, s.log.String())
	default:
	}
	resp, err := http.Get(s.URL + "/healthz")
	if err != nil {
		s.t.Fatalf("healthz: %v\n%s", err, s.log.String())
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		s.t.Fatalf("healthz answered %d: %s", resp.StatusCode, b)
	}
}

// memory returns the process's resident set now and at its peak, in bytes.
func (s *server) memory() (rss, peak int64) {
	s.t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		s.t.Skipf("no /proc here: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "VmRSS:":
			rss = kb << 10
		case "VmHWM:":
			peak = kb << 10
		}
	}
	return rss, peak
}

// client is an HTTP client with its own cookie jar: one browser.
type client struct {
	t     testing.TB
	srv   *server // its URL changes when it restarts
	http  *http.Client
	token string
}

func (s *server) client() *client {
	jar, _ := cookiejar.New(nil)
	return &client{t: s.t, srv: s, http: &http.Client{Jar: jar, Timeout: time.Minute}}
}

// answer is an HTTP answer: its status, headers and body.
type answer struct {
	Status int
	Header http.Header
	Body   []byte
}

func (a answer) String() string { return fmt.Sprintf("%d %s", a.Status, bytes.TrimSpace(a.Body)) }

// json decodes the body into v.
func (a answer) json(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(a.Body, v); err != nil {
		t.Fatalf("answer %s: %v", a, err)
	}
}

// do sends a request with a JSON body (nil: none) as the API expects it.
func (c *client) do(method, path string, body any, header ...string) answer {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		var b []byte
		switch v := body.(type) {
		case string:
			b = []byte(v)
		default:
			var err error
			if b, err = json.Marshal(v); err != nil {
				c.t.Fatal(err)
			}
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.srv.URL+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if method != http.MethodGet {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return answer{Status: resp.StatusCode, Header: resp.Header, Body: data}
}

// player makes the client a guest called name.
func (c *client) player(name string) {
	c.t.Helper()
	a := c.do("POST", "/api/players", map[string]string{"name": name})
	if a.Status != http.StatusCreated {
		c.t.Fatalf("new player: %s", a)
	}
	var p struct{ Token string }
	a.json(c.t, &p)
	c.token = p.Token
}

// table creates a table; it returns the answer (the caller checks it).
func (c *client) table(rules any, seats ...map[string]string) answer {
	c.t.Helper()
	body := map[string]any{"seats": seats}
	if rules != nil {
		body["rules"] = rules
	}
	return c.do("POST", "/api/tables", body)
}

func bot(level string) map[string]string { return map[string]string{"type": "bot", "level": level} }

var me = map[string]string{"type": "me"}

// tableID returns the id of a created table, failing unless it was created.
func tableID(t testing.TB, a answer) string {
	t.Helper()
	if a.Status != http.StatusCreated {
		t.Fatalf("table not created: %s", a)
	}
	var tb struct{ ID string }
	a.json(t, &tb)
	return tb.ID
}

// refused fails unless a is a 4xx answer with a JSON error; with field it
// must name that field.
func refused(t testing.TB, what string, a answer, status int, field string) {
	t.Helper()
	if a.Status != status {
		t.Fatalf("%s: answered %s, want %d", what, a, status)
	}
	var e struct{ Error, Code, Field string }
	if err := json.Unmarshal(a.Body, &e); err != nil || e.Error == "" {
		t.Fatalf("%s: the refusal is not a JSON error: %s", what, a)
	}
	if strings.HasPrefix(e.Error, "store:") || strings.Contains(e.Error, "rules: rules:") {
		t.Errorf("%s: the error carries an internal prefix: %q", what, e.Error)
	}
	if field != "" && e.Field != field {
		t.Fatalf("%s: the error names field %q, want %q: %s", what, e.Field, field, a)
	}
}

// deadline returns a context that ends with the test's own deadline less a
// margin, or after d.
func deadline(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// metric returns the value of a metric without labels from the server's
// metrics listener.
func (s *server) metric(name string) float64 {
	s.t.Helper()
	if s.Metrics == "" {
		s.t.Fatal("the server has no metrics listener: start it with --metrics-addr 127.0.0.1:0")
	}
	resp, err := http.Get(s.Metrics + "/metrics")
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(body), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == name {
			v, err := strconv.ParseFloat(f[1], 64)
			if err != nil {
				s.t.Fatalf("metric %s: %v", name, err)
			}
			return v
		}
	}
	s.t.Fatalf("no metric %s", name)
	return 0
}
