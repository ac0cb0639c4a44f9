package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/farkle/farkle/record"
	"github.com/farkle/farkle/server/wsclient"
)

// startServe runs the built binary's serve command on 127.0.0.1:0 and
// returns the process and its URL.
func startServe(t *testing.T, db string) (*exec.Cmd, string) {
	t.Helper()
	if farkleBuildErr != nil {
		t.Fatal(farkleBuildErr)
	}
	cmd := exec.Command(farkleBin, "serve", "--addr", "127.0.0.1:0", "--db", db, "--bot-delay", "1h")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("serve printed no address: %v", err)
	}
	f := strings.Fields(line)
	if len(f) < 3 || !strings.HasPrefix(f[2], "http://") {
		t.Fatalf("serve printed %q", line)
	}
	go io.Copy(io.Discard, out)
	return cmd, f[2]
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
	rec, err := record.Parse(data)
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
