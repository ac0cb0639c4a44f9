package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/online"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/tui"
)

// TestTokenFile: play --online keeps its guest's token in a file and signs
// in with it the next time; it reads at most maxTokenFile bytes of it, and
// refuses a file longer than that or one that holds no token, saying to
// delete it, without touching the file.
func TestTokenFile(t *testing.T) {
	ts := servertest.Start(t, server.Options{})
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "online", "host.token")

	first, _, err := signIn(ctx, online.New(ts.URL), "Ann", "", path)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := os.ReadFile(path)
	if err != nil || strings.TrimSpace(string(kept)) != first.Token {
		t.Fatalf("the token file holds %q (%v), want the guest's token", kept, err)
	}
	again, _, err := signIn(ctx, online.New(ts.URL), "", "Someone", path) // $USER names only a new guest
	if err != nil || again.ID != first.ID {
		t.Fatalf("signed in again as %+v (%v), want %+v", again, err, first)
	}
	// At the bound: the token and white space, maxTokenFile bytes in all.
	atBound := filepath.Join(dir, "at-bound.token")
	os.WriteFile(atBound, []byte(first.Token+strings.Repeat("\n", maxTokenFile-len(first.Token))), 0o600)
	if p, _, err := signIn(ctx, online.New(ts.URL), "", "Someone", atBound); err != nil || p.ID != first.ID {
		t.Fatalf("a token file of exactly %d bytes: %+v (%v), want %+v", maxTokenFile, p, err, first)
	}

	for _, tc := range []struct {
		name, body, why string
	}{
		{"too long", first.Token + strings.Repeat("\n", maxTokenFile+1-len(first.Token)), fmt.Sprintf("longer than %d bytes", maxTokenFile)},
		{"huge", strings.Repeat("x", 1<<20), fmt.Sprintf("longer than %d bytes", maxTokenFile)},
		{"two lines", first.Token + "\n" + first.Token + "\n", "holds no token"},
		{"a header", "tok\r\nX-Evil: 1", "holds no token"},
		{"empty", "", "holds no token"},
		{"binary", "\x00\x01\x02", "holds no token"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := filepath.Join(t.TempDir(), "bad.token")
			if err := os.WriteFile(bad, []byte(tc.body), 0o600); err != nil {
				t.Fatal(err)
			}
			_, _, err := signIn(ctx, online.New(ts.URL), "Bob", "", bad)
			if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), tc.why) || !strings.Contains(err.Error(), "delete it") {
				t.Fatalf("signing in with a token file %s: %v, want an error naming the file, %q, and what to do", tc.name, err, tc.why)
			}
			if nb := userTextIn(lang.Get("nb"), err); !strings.Contains(nb, bad) || !strings.Contains(nb, "slett den") || strings.Contains(nb, "delete it") {
				t.Fatalf("a token file %s, said in Norwegian: %q", tc.name, nb)
			}
			if left, _ := os.ReadFile(bad); string(left) != tc.body {
				t.Fatal("the refused token file was changed")
			}
		})
	}
	// A file that cannot be read (a directory) is refused likewise.
	if _, _, err := signIn(ctx, online.New(ts.URL), "Bob", "", dir); err == nil || !strings.Contains(err.Error(), "delete it") {
		t.Fatalf("a token file that is a directory: %v", err)
	}
}

// TestOnlineNameWins: with the real binary at a real server, --name given
// wins over the saved guest (issue 27): play --online --name Bob after a
// session as Ann signs in as a new guest Bob and says so, keeping Ann for
// a session without --name; --name Bob again is the same Bob, without a
// word; --name Ann is Ann.
func TestOnlineNameWins(t *testing.T) {
	dir := t.TempDir()
	_, base := startServe(t, filepath.Join(dir, "f.db"))
	data := filepath.Join(dir, "data")
	run := func(args ...string) (stderr string) {
		t.Helper()
		cmd := exec.Command(farkleBin, append([]string{"play", "--online", base, "--plain", "--players", "you,bot:steady"}, args...)...)
		cmd.Stdin = strings.NewReader("quit\n")
		cmd.Env = append(os.Environ(), "FARKLE_DATA_DIR="+data, "USER=ann", "LANG=")
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("farkle play %v: %v\n%s%s", args, err, out.String(), errOut.String())
		}
		return errOut.String()
	}
	tokens := func() map[string]string { // file name -> the name of its guest
		t.Helper()
		files, _ := filepath.Glob(filepath.Join(data, "online", "*.token"))
		out := map[string]string{}
		for _, f := range files {
			tok, err := readToken(f)
			if err != nil {
				t.Fatal(err)
			}
			p, err := online.New(base).SignIn(context.Background(), "", tok)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			out[filepath.Base(f)] = p.Name + " " + p.ID
		}
		return out
	}
	if e := run("--name", "Ann"); e != "" {
		t.Fatalf("the first session says %q", e)
	}
	first := tokens()
	if len(first) != 1 {
		t.Fatalf("token files after the first session: %v", first)
	}
	e := run("--name", "Bob")
	if !strings.Contains(e, "new guest, Bob") || !strings.Contains(e, "Ann is kept") {
		t.Fatalf("--name Bob after Ann says %q, want that a new guest Bob is made and Ann kept", e)
	}
	second := tokens()
	var ann, bob string
	for f, who := range second {
		switch {
		case first[f] == who && strings.HasPrefix(who, "Ann "):
			ann = who
		case strings.HasPrefix(who, "Bob "):
			bob = who
		}
	}
	if len(second) != 2 || ann == "" || bob == "" {
		t.Fatalf("token files after --name Bob: %v (before: %v), want Ann's kept and Bob's", second, first)
	}
	for _, args := range [][]string{{"--name", "Bob"}, {}, {"--name", "Ann"}} {
		if e := run(args...); e != "" {
			t.Fatalf("%v says %q, want no new guest", args, e)
		}
		if now := tokens(); len(now) != 2 || fmt.Sprint(now) != fmt.Sprint(second) {
			t.Fatalf("%v changed the guests: %v, were %v", args, now, second)
		}
	}
}

// TestOnlineNameRefusedNorwegian: a name the server refuses is said as a
// sentence in the player's language, with what to do, and why in that
// language too (the server's reason word, not its English).
func TestOnlineNameRefusedNorwegian(t *testing.T) {
	dir := t.TempDir()
	_, base := startServe(t, filepath.Join(dir, "f.db"))
	long := strings.Repeat("x", 100)
	for _, c := range []struct{ lang, name, want string }{
		{"nb", long, "serveren godtar ikke navnet \"" + long + "\" (det er lengre enn 24 tegn); gi et annet med --name"},
		{"nb", "Kari bot", "serveren godtar ikke navnet \"Kari bot\" (ordet «bot» er holdt av til botene); gi et annet med --name"},
		{"en", long, "the server does not take the name \"" + long + "\" (it is longer than 24 characters); give another with --name"},
	} {
		cmd := exec.Command(farkleBin, "play", "--online", base, "--plain", "--lang", c.lang, "--name", c.name)
		cmd.Env = append(os.Environ(), "FARKLE_DATA_DIR="+dir)
		out, err := cmd.CombinedOutput()
		if want := "farkle play: " + c.want + "\n"; err == nil || string(out) != want {
			t.Fatalf("--lang %s --name %q: %v\n%s\nwant\n%s", c.lang, c.name, err, out, want)
		}
	}
}

// TestTokenOfAnotherDatabase: a token kept for a server whose database was
// made anew since (or another server at the address) is no player there:
// the server answers GET /api/me with null, and play --online signs in as
// a new guest, keeps its token, and can open a table (it used to sign in
// as nobody and fail at the table: "creating a table needs a player").
func TestTokenOfAnotherDatabase(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "online", "host.token")
	before := servertest.Start(t, server.Options{})
	old, _, err := signIn(ctx, online.New(before.URL), "Ann", "", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"", "Ann"} { // the saved guest, and --name as it
		after := servertest.Start(t, server.Options{}) // a new database
		c := online.New(after.URL)
		p, _, err := signIn(ctx, c, name, "Ann", path)
		if err != nil {
			t.Fatalf("--name %q: %v", name, err)
		}
		if p.ID == "" || p.Name != "Ann" || p.Token == old.Token {
			t.Fatalf("--name %q: signed in as %+v with the old token %q", name, p, old.Token)
		}
		if _, err := c.Create(ctx, tui.NewTable{Preset: "classic", Seats: []tui.Seat{{Name: "you"}, {Name: "Bot", Bot: "steady"}}}); err != nil {
			t.Fatalf("--name %q: the new guest cannot open a table: %v", name, err)
		}
		kept, err := os.ReadFile(path)
		if err != nil || strings.TrimSpace(string(kept)) != p.Token {
			t.Fatalf("--name %q: the token file holds %q (%v), want the new guest's token", name, kept, err)
		}
		old = p
	}
}
