package sshserve_test

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/internal/sshtest"
	"github.com/farkle/farkle/internal/syncbuf"
	"github.com/farkle/farkle/sshserve"
)

// TestSessionLanguageFromLANG: the LANG an ssh client sends (SendEnv)
// chooses the language of the session's game; LC_ALL wins over it, and
// a session that sends none, or a language there is no catalogue for,
// plays in English.
func TestSessionLanguageFromLANG(t *testing.T) {
	var log syncbuf.Buffer
	r := start(t, sshserve.Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	for _, tc := range []struct {
		user string
		env  []string
		want string
	}{
		{"norah", []string{"LANG", "nb_NO.UTF-8"}, "nb"},
		{"nils", []string{"LANG", "en_US.UTF-8", "LC_ALL", "no_NO.UTF-8"}, "nb"},
		{"emma", nil, "en"},
		{"karl", []string{"LANG", "de_DE.UTF-8"}, "en"},
		{"cee", []string{"LANG", "C"}, "en"},
	} {
		c, err := sshtest.Dial(r.ssh, tc.user, sshtest.Key(t, 0))
		if err != nil {
			t.Fatal(err)
		}
		sshtest.Open(t, c, 80, 24, tc.env...) // the lobby's words are the language's: the log says which it is
		want := "user=" + tc.user + " lang=" + tc.want
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(log.String(), want) {
			if time.Now().After(deadline) {
				t.Fatalf("%s %v: the log does not say %q:\n%s", tc.user, tc.env, want, log.String())
			}
			time.Sleep(10 * time.Millisecond) // the log is written by the server's goroutine
		}
		c.Close()
	}
}
