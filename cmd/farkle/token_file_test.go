package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/online"
	"github.com/farkle/farkle/server"
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

	first, err := signIn(ctx, online.New(ts.URL), "Ann", "", path)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := os.ReadFile(path)
	if err != nil || strings.TrimSpace(string(kept)) != first.Token {
		t.Fatalf("the token file holds %q (%v), want the guest's token", kept, err)
	}
	again, err := signIn(ctx, online.New(ts.URL), "Someone", "", path)
	if err != nil || again.ID != first.ID {
		t.Fatalf("signed in again as %+v (%v), want %+v", again, err, first)
	}
	// At the bound: the token and white space, maxTokenFile bytes in all.
	atBound := filepath.Join(dir, "at-bound.token")
	os.WriteFile(atBound, []byte(first.Token+strings.Repeat("\n", maxTokenFile-len(first.Token))), 0o600)
	if p, err := signIn(ctx, online.New(ts.URL), "Someone", "", atBound); err != nil || p.ID != first.ID {
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
			_, err := signIn(ctx, online.New(ts.URL), "Bob", "", bad)
			if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), tc.why) || !strings.Contains(err.Error(), "delete it") {
				t.Fatalf("signing in with a token file %s: %v, want an error naming the file, %q, and what to do", tc.name, err, tc.why)
			}
			if left, _ := os.ReadFile(bad); string(left) != tc.body {
				t.Fatal("the refused token file was changed")
			}
		})
	}
	// A file that cannot be read (a directory) is refused likewise.
	if _, err := signIn(ctx, online.New(ts.URL), "Bob", "", dir); err == nil || !strings.Contains(err.Error(), "delete it") {
		t.Fatalf("a token file that is a directory: %v", err)
	}
}
