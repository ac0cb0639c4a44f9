package main

// Shared test helpers for every subcommand's tests:
//
//   - runFarkle(t, stdin, args...) runs Main in-process.
//   - execFarkle(t, stdin, args...) runs the farkle binary built once by
//     TestMain, so the real exit status and stderr are checked.
//   - writeTestFile(t, name, body) writes a file into a fresh temp dir.
//   - checkBadInput(t, stderr, code, mention...) asserts exit status 2 and
//     exactly one stderr line holding every mention.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/farkle/farkle/internal/browsertest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// farkleBin is the path of the binary built by TestMain; farkleBuildErr is
// set when the build failed (execFarkle then fails the test).
var (
	farkleBin      string
	farkleBuildErr error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "farkle-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	farkleBin = filepath.Join(dir, "farkle")
	cmd := exec.Command("go", "build", "-o", farkleBin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		farkleBuildErr = fmt.Errorf("go build: %v\n%s", err, out)
	}
	code := browsertest.Main(m) // one Chromium for the browser tests
	os.RemoveAll(dir)
	os.Exit(code)
}

// runFarkle runs farkle in-process with args (without the program name) and
// stdin, and returns what it wrote and its exit status.
func runFarkle(t testing.TB, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{
		stdin:  strings.NewReader(stdin),
		stdout: &out,
		stderr: &errOut,
		getenv: func(string) string { return "" },
	}
	code = Main(context.Background(), e, args)
	return out.String(), errOut.String(), code
}

// execFarkle runs the built farkle binary with args and stdin, and returns
// what it wrote and its exit status.
func execFarkle(t testing.TB, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return execFarkleEnv(t, nil, stdin, args...)
}

// execFarkleEnv is execFarkle with the variables of env (NAME=VALUE) set;
// the locale variables of the tests' own environment are left out, so
// that farkle speaks English unless env chooses a language.
func execFarkleEnv(t testing.TB, env []string, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	if farkleBuildErr != nil {
		t.Fatal(farkleBuildErr)
	}
	cmd := exec.Command(farkleBin, args...)
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name != "LANG" && name != "LANGUAGE" && !strings.HasPrefix(name, "LC_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("running %s: %v", farkleBin, err)
	}
	return out.String(), errOut.String(), code
}

// farkleRunners are the two ways to run farkle, for tests that check both.
var farkleRunners = []struct {
	name string
	run  func(t testing.TB, stdin string, args ...string) (string, string, int)
}{
	{"in-process", runFarkle},
	{"binary", execFarkle},
}

// writeTestFile writes body to a file called name in a fresh temp dir and
// returns its path.
func writeTestFile(t testing.TB, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkBadInput asserts exit status 2 and exactly one line on stderr that
// holds every string of mention.
func checkBadInput(t testing.TB, stderr string, code int, mention ...string) {
	t.Helper()
	if code != 2 {
		t.Errorf("exit status %d, want 2 (stderr %q)", code, stderr)
	}
	if strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
		t.Errorf("stderr is not exactly one line: %q", stderr)
	}
	for _, m := range mention {
		if !strings.Contains(stderr, m) {
			t.Errorf("stderr %q does not mention %q", stderr, m)
		}
	}
}
