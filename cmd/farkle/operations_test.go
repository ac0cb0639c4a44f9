package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/farkle/farkle/internal/syncbuf"
	"github.com/farkle/farkle/server/wsclient"
)

// repoFile reads a file of the repository.
func repoFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// exportedMetrics runs a node and returns the names of the farkle metric
// families its /metrics serves.
func exportedMetrics(t *testing.T) map[string]bool {
	t.Helper()
	_, lines := spawnServeLines(t, io.Discard, 1, "--db", filepath.Join(t.TempDir(), "farkle.db"), "--metrics-addr", "127.0.0.1:0")
	m := regexp.MustCompile(`metrics at (http://\S+)/metrics\)`).FindStringSubmatch(lines[0])
	if m == nil {
		t.Fatalf("serve printed %q: no metrics listener", lines[0])
	}
	resp, err := http.Get(m[1] + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	names := map[string]bool{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) >= 3 && f[0] == "#" && f[1] == "TYPE" && strings.HasPrefix(f[2], "farkle_") {
			names[f[2]] = true
		}
	}
	if len(names) < 10 {
		t.Fatalf("only %d farkle metrics exported: %v", len(names), names)
	}
	return names
}

// TestMetricsDocumented: every farkle metric a node exports is in the
// operator's guide's table, and the table names no metric that is not
// exported.
func TestMetricsDocumented(t *testing.T) {
	names := exportedMetrics(t)
	guide := repoFile(t, "docs/OPERATIONS.md")
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `(farkle_[a-z_]+)").FindAllStringSubmatch(guide, -1) {
		documented[m[1]] = true
	}
	for n := range names {
		if !documented[n] {
			t.Errorf("metric %s is exported but not in docs/OPERATIONS.md's table", n)
		}
	}
	for n := range documented {
		if !names[n] {
			t.Errorf("docs/OPERATIONS.md documents %s, which no node exports", n)
		}
	}
}

// TestAlertRules checks docs/deploy/alerts.yml with promtool (Debian's
// prometheus package) and that every farkle metric it names is exported.
func TestAlertRules(t *testing.T) {
	promtool := needTool(t, "promtool")
	rules := filepath.Join("..", "..", "docs", "deploy", "alerts.yml")
	if out, err := exec.Command(promtool, "check", "rules", rules).CombinedOutput(); err != nil {
		t.Fatalf("promtool check rules: %v\n%s", err, out)
	}
	names := exportedMetrics(t)
	used := regexp.MustCompile(`farkle_[a-z_]+`).FindAllString(repoFile(t, "docs/deploy/alerts.yml"), -1)
	if len(used) == 0 {
		t.Fatal("the rules name no farkle metric")
	}
	for _, u := range used {
		base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(u, "_bucket"), "_sum"), "_count")
		if !names[base] {
			t.Errorf("alerts.yml names %s, which no node exports", u)
		}
	}
	// The guide's rules are these: a broken rule is found.
	bad := filepath.Join(t.TempDir(), "bad.yml")
	if err := os.WriteFile(bad, []byte("groups:\n  - name: x\n    rules:\n      - alert: X\n        expr: rate(farkle_actions_total[5m]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(promtool, "check", "rules", bad).CombinedOutput(); err == nil {
		t.Fatalf("promtool passed a broken rule: %s", out)
	}
}

// TestSystemdUnit checks docs/deploy/farkle.service with systemd-analyze
// verify (its ExecStart pointed at the built binary), and that it keeps
// the hardening the guide promises.
func TestSystemdUnit(t *testing.T) {
	analyze := needTool(t, "systemd-analyze")
	unit := repoFile(t, "docs/deploy/farkle.service")
	for _, opt := range []string{"DynamicUser=yes", "StateDirectory=farkle", "NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=yes",
		"PrivateTmp=yes", "PrivateDevices=yes", "CapabilityBoundingSet=\n", "SystemCallFilter=@system-service", "MemoryDenyWriteExecute=yes", "KillSignal=SIGTERM"} {
		if !strings.Contains(unit, opt) {
			t.Errorf("the unit lacks %q", strings.TrimSpace(opt))
		}
	}
	if farkleBuildErr != nil {
		t.Fatal(farkleBuildErr)
	}
	unit = strings.ReplaceAll(unit, "/usr/local/bin/farkle", farkleBin)
	path := filepath.Join(t.TempDir(), "farkle.service")
	if err := os.WriteFile(path, []byte(unit), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(analyze, "verify", path).CombinedOutput()
	if err != nil || strings.Contains(string(out), "farkle.service") {
		t.Fatalf("systemd-analyze verify: %v\n%s", err, out)
	}
	// The binary accepts the unit's command line.
	f := strings.Fields(regexp.MustCompile(`(?m)^ExecStart=(.*)$`).FindStringSubmatch(unit)[1])
	if _, errOut, code := execFarkle(t, "", append(f[1:], "-h")...); code != 0 {
		t.Errorf("%v -h: exit %d: %s", f, code, errOut)
	}
}

// guideBlock is a fenced shell block of the guide marked as tested.
type guideBlock struct {
	line      int
	stopFirst bool
	script    string
}

// testedBlocks returns the guide's blocks fenced "```sh tested".
func testedBlocks(t *testing.T, guide string) []guideBlock {
	t.Helper()
	var out []guideBlock
	var cur *guideBlock
	for i, line := range strings.Split(guide, "\n") {
		switch {
		case cur == nil && strings.HasPrefix(line, "```sh tested"):
			cur = &guideBlock{line: i + 1, stopFirst: strings.Contains(line, "stop-first")}
		case cur != nil && line == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.script += line + "\n"
		}
	}
	if cur != nil {
		t.Fatalf("docs/OPERATIONS.md:%d: a block is not closed", cur.line)
	}
	return out
}

// TestOperationsGuide runs every block of docs/OPERATIONS.md fenced as
// "```sh tested", in order, in one directory standing for the node's
// /var/lib/farkle, with the built binary as farkle on the PATH, against a
// farkle serve running there on farkle.db ($FARKLE_DB); a block marked
// stop-first runs after that server is stopped with SIGTERM.
func TestOperationsGuide(t *testing.T) {
	if farkleBuildErr != nil {
		t.Fatal(farkleBuildErr)
	}
	blocks := testedBlocks(t, repoFile(t, "docs/OPERATIONS.md"))
	if len(blocks) < 3 {
		t.Fatalf("only %d tested blocks in the guide", len(blocks))
	}
	dir := t.TempDir()
	bin := t.TempDir()
	if err := os.Symlink(farkleBin, filepath.Join(bin, "farkle")); err != nil {
		t.Fatal(err)
	}
	stderr := &syncbuf.Buffer{}
	cmd, base, _ := spawnServe(t, stderr, "--db", filepath.Join(dir, "farkle.db"), "--bot-delay", "0")
	// A game played to its end, for the backups to hold and verify.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	host := wsclient.New(base)
	if _, _, err := host.NewPlayer(ctx, "Host"); err != nil {
		t.Fatal(err)
	}
	tb, err := host.CreateTable(ctx, map[string]any{"base": "classic", "game": map[string]any{"target": 1000}},
		map[string]string{"type": "bot", "level": "steady"}, map[string]string{"type": "bot", "level": "cautious"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := watch(ctx, base, tb.ID, func() {}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "event=migration") {
		t.Errorf("the first start logged no migration event:\n%s", stderr)
	}
	// The account the moderation blocks name, made beside the running node.
	makeAccountIn(t, filepath.Join(dir, "farkle.db"), "maud", "Maud")
	running := true
	var ran []string
	for _, b := range blocks {
		if b.stopFirst && running {
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Wait(); err != nil {
				t.Fatalf("serve after SIGTERM: %v\n%s", err, stderr)
			}
			running = false
		}
		sh := exec.Command("bash", "-euo", "pipefail", "-c", b.script)
		sh.Dir = dir
		sh.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "FARKLE_DB=farkle.db")
		out, err := sh.CombinedOutput()
		if err != nil {
			t.Fatalf("docs/OPERATIONS.md:%d: %v\n%s\n%s", b.line, err, b.script, out)
		}
		ran = append(ran, strings.TrimSpace(string(out)))
	}
	// The restore left a database that checks, in place of the old one.
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	out, errOut, code := execFarkle(t, "", "db", "check", filepath.Join(dir, "farkle.db"))
	if code != 0 || !strings.Contains(out, "1 finished games") {
		t.Fatalf("after the guide's restore: %s%s (files %v)", out, errOut, names)
	}
	all := strings.Join(ran, "\n---\n")
	if !strings.Contains(all, "Maud (maud) is a moderator") || !strings.Contains(all, "Maud\tmaud\tsince ") || !strings.Contains(all, "Maud (maud) is no longer a moderator") {
		t.Errorf("the guide's moderation blocks did not name, list and remove Maud:\n%s", all)
	}
	t.Logf("ran %d blocks:\n%s", len(blocks), all)
}
