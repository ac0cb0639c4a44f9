package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/farkle/farkle/internal/syncbuf"
	"github.com/farkle/farkle/internal/testflags"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/store/postgres/pgtest"
)

// previousRev is the release the mixed-version test runs beside this one:
// $FARKLE_PREVIOUS_REV (a git revision), else the commit before the one
// that added the newest PostgreSQL migration, so that the old binary knows
// one migration less than the database it meets.
func previousRev(t *testing.T) string {
	t.Helper()
	if rev := os.Getenv("FARKLE_PREVIOUS_REV"); rev != "" {
		return rev
	}
	// --diff-filter=A: the commit that added a migration, not one that
	// later mended a comment in one (its parent would know them all).
	out, err := exec.Command("git", "log", "-1", "--diff-filter=A", "--format=%H", "--", "../../store/postgres/migrations").Output()
	if err != nil || len(bytes.TrimSpace(out)) == 0 {
		t.Skipf("no git history to build the previous release from: %v", err)
	}
	return strings.TrimSpace(string(out)) + "~1"
}

// buildRev builds farkle as it was at the git revision rev (from git
// archive: the repository is not touched) and returns the binary.
func buildRev(t *testing.T, rev string) string {
	t.Helper()
	dir := t.TempDir()
	archive := exec.Command("git", "archive", "--format=tar", rev)
	archive.Dir = filepath.Join("..", "..") // the whole tree, not this directory's
	tarx := exec.Command("tar", "-x", "-C", dir)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	tarx.Stdin = pipe
	var errs bytes.Buffer
	archive.Stderr, tarx.Stderr = &errs, &errs
	if err := tarx.Start(); err != nil {
		t.Fatal(err)
	}
	if err := archive.Run(); err != nil {
		t.Fatalf("git archive %s: %v\n%s", rev, err, &errs)
	}
	if err := tarx.Wait(); err != nil {
		t.Fatalf("tar: %v\n%s", err, &errs)
	}
	bin := filepath.Join(dir, "farkle-old")
	build := exec.Command("go", "build", "-buildvcs=false", "-trimpath", "-o", bin, "./cmd/farkle")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build of %s: %v\n%s", rev, err, out)
	}
	return bin
}

// spawnServeBin is spawnServe with another farkle binary.
func spawnServeBin(t *testing.T, bin string, stderr io.Writer, flags ...string) (*exec.Cmd, string) {
	t.Helper()
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--metrics-addr", ""}, flags...)
	cmd := exec.Command(bin, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line := make([]byte, 0, 256)
	b := make([]byte, 1)
	for {
		if _, err := out.Read(b); err != nil {
			t.Fatalf("%s serve printed %q, then: %v", bin, line, err)
		}
		if b[0] == '\n' {
			break
		}
		line = append(line, b[0])
	}
	go io.Copy(io.Discard, out)
	f := strings.Fields(string(line))
	if len(f) < 3 || !strings.HasPrefix(f[2], "http://") {
		t.Fatalf("serve printed %q", line)
	}
	return cmd, f[2]
}

// TestMixedVersions runs the previous release's binary beside this one on
// one PostgreSQL database, as during a rolling upgrade: the new node
// migrates the database first, the old node then runs on the newer schema
// (migrations are additive until a later release cleans up), tables made
// on either node are played through both, the old node stops (SIGTERM, as
// the upgrade replaces it) and the new one takes its tables over. Every
// game ends and every record verifies with the new binary; db check finds
// the database sound.
func TestMixedVersions(t *testing.T) {
	// Compiling the previous release takes minutes on a small machine.
	testflags.SkipUnlessLong(t, "builds the previous release from git")
	dsn := pgtest.DSN(t)
	rev := previousRev(t)
	old := buildRev(t, rev)
	flags := []string{"--db", dsn, "--bot-delay", "20ms", "--lease", "2s", "--rate-address", "0", "--rate-player", "0", "--ws-per-address", "0",
		"--max-bot-tables", "0", "--max-open-tables", "0"}
	newLog, oldLog := &syncbuf.Buffer{}, &syncbuf.Buffer{}
	_, newURL, _ := spawnServe(t, newLog, append(flags, "--node", "new")...)
	oldCmd, oldURL := spawnServeBin(t, old, oldLog, append(flags, "--node", "old")...)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rules := map[string]any{"base": "classic", "game": map[string]any{"target": 3000}}
	c := &cluster{nodes: []*clusterNode{{url: oldURL}, {url: newURL}}}
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	var ids []string
	reached := sync.WaitGroup{}
	for i := range 6 {
		made := []string{oldURL, newURL}[i%2] // made on one node, watched on the other
		host := wsclient.New(made)
		if _, _, err := host.NewPlayer(ctx, fmt.Sprint("Host", i)); err != nil {
			t.Fatal(err)
		}
		people := i >= 4
		seats := []map[string]string{{"type": "bot", "level": "steady"}, {"type": "bot", "level": "cautious"}}
		if people {
			seats = []map[string]string{{"type": "me"}, {"type": "human"}, {"type": "bot", "level": "steady"}}
		}
		tb, err := host.CreateTable(ctx, rules, seats...)
		if err != nil {
			t.Fatalf("table on %s: %v\nold node:\n%s", made, err, oldLog)
		}
		ids = append(ids, tb.ID)
		reached.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := watch(ctx, newURL, tb.ID, reached.Done); err != nil {
				errs <- fmt.Errorf("watcher of %s: %w", tb.ID, err)
			}
		}()
		if !people {
			continue
		}
		guest := seatGuest(ctx, t, newURL, fmt.Sprint("Guest", i), tb.ID)
		for k, cl := range []*wsclient.Client{host, guest} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// The host plays on the old node, the guest on the new;
				// when the old node stops, the host moves to the new.
				if err := c.person(ctx, cl, k, tb.ID, nil); err != nil {
					errs <- fmt.Errorf("player %d of %s: %w", k, tb.ID, err)
				}
			}()
		}
	}
	reached.Wait()
	c.dead.Store(1)
	if err := oldCmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := oldCmd.Wait(); err != nil {
		t.Errorf("the old node after SIGTERM: %v", err)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		t.Fatalf("previous release %s; old node:\n%s\nnew node:\n%s", rev, oldLog, newLog)
	}
	dir := t.TempDir()
	for _, id := range ids {
		resp, err := http.Get(newURL + "/api/tables/" + id + "/record")
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		path := filepath.Join(dir, id+".json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if out, errOut, code := execFarkle(t, "", "verify", path); code != 0 {
			t.Errorf("farkle verify %s: exit %d: %s%s", id, code, out, errOut)
		}
	}
	if out, errOut, code := execFarkle(t, "", "db", "check", dsn); code != 0 {
		t.Errorf("db check: exit %d: %s%s", code, out, errOut)
	}
	t.Logf("previous release %s and this one played %d games on one database", rev, len(ids))
}
