package server_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/store"
)

type chatLineJSON struct {
	N      int
	Player string
	Name   string
	Seat   int
	Text   string
}

type chatJSON struct {
	Type    string
	History bool
	Lines   []chatLineJSON
	Code    string
}

// nextChat reads c's messages until a chat message or an error.
func nextChat(t *testing.T, ctx context.Context, c *wsclient.Client) chatJSON {
	t.Helper()
	for {
		m, err := c.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if m.Type == "chat" || m.Type == "error" {
			var out chatJSON
			if err := json.Unmarshal(m.Raw, &out); err != nil {
				t.Fatal(err)
			}
			return out
		}
	}
}

// TestChat: the players at a table chat; a line reaches everyone watching
// as the text sent (markup is the client's to escape), a watcher without a
// player cannot chat (one with a player chats with the watchers:
// TestWatchersChat), a line too long or too fast is refused, and the lines stay with
// the table: a client connecting later, even after a restart, gets them
// after its welcome (a table without chat sends none).
func TestChat(t *testing.T) {
	path := t.TempDir() + "/chat.db"
	ts := start(t, path, server.Options{})
	ctx := ctxT(t, time.Minute)
	ann, bea := newPlayer(t, ts, "Ann"), newPlayer(t, ts, "Bea")
	id := paceTable(t, ctx, ann, bea, "1d")
	cy := wsclient.New(ts.URL)
	if _, _, err := cy.NewPlayer(ctx, "Cy"); err != nil {
		t.Fatal(err)
	}
	if err := cy.Connect(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := ann.Send(ctx, map[string]string{"type": "chat", "text": "  <b>hi</b>\n  Bea "}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*wsclient.Client{ann.Client, bea.Client, cy} {
		m := nextChat(t, ctx, c)
		if m.Type != "chat" || len(m.Lines) != 1 || m.Lines[0].Text != "<b>hi</b> Bea" || m.Lines[0].Name != "Ann" || m.Lines[0].Player != ann.ID || m.Lines[0].Seat != ann.Seat || m.Lines[0].N != 1 {
			t.Fatalf("the line as received: %+v", m)
		}
	}
	anon := wsclient.New(ts.URL)
	if err := anon.Connect(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := anon.Send(ctx, map[string]string{"type": "chat", "text": "hello"}); err != nil {
		t.Fatal(err)
	}
	if m := nextChat(t, ctx, anon); m.Type != "chat" || !m.History {
		t.Fatalf("the history for a watcher: %+v", m)
	}
	if m := nextChat(t, ctx, anon); m.Type != "error" || m.Code != "not_seated" {
		t.Fatalf("the line of a watcher without a player: %+v", m)
	}
	anon.Close()
	if err := bea.Send(ctx, map[string]string{"type": "chat", "text": strings.Repeat("é", 201)}); err != nil {
		t.Fatal(err)
	}
	if m := nextChat(t, ctx, bea.Client); m.Type != "error" || m.Code != "bad_message" {
		t.Fatalf("a line of 201 characters: %+v", m)
	}
	// Ann has said one line; her burst is four, then the rate holds.
	codes := ""
	for range 4 {
		if err := ann.Send(ctx, map[string]string{"type": "chat", "text": "gg"}); err != nil {
			t.Fatal(err)
		}
		m := nextChat(t, ctx, ann.Client)
		codes += m.Type + ":" + m.Code + " "
	}
	if codes != "chat: chat: chat: error:rate_limited " {
		t.Fatalf("five lines at once: %s", codes)
	}
	ann.Close()
	bea.Close()
	cy.Close()
	ts.Stop()

	ts2 := start(t, path, server.Options{})
	late := clientWithToken(t, ts2.URL, bea.Token)
	if err := late.Connect(ctx, id); err != nil {
		t.Fatal(err)
	}
	h := nextChat(t, ctx, late)
	if !h.History || len(h.Lines) != 4 || h.Lines[0].Text != "<b>hi</b> Bea" || h.Lines[3].N != 4 { // the watcher without a player said nothing
		t.Fatalf("the history after a restart: %+v", h)
	}
}

// TestInvite: a seat kept for a named account waits for that player only
// (shown under the name as the inviter wrote it); the invitation is first
// on the player's list of games, and taking it starts the game. Nobody may
// invite themselves (invite_test.go has the rest).
func TestInvite(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, time.Minute)
	ann, bea, cy := newPlayer(t, ts, "Ann"), newPlayer(t, ts, "Bea"), newPlayer(t, ts, "Cy")
	for _, p := range []*player{ann, bea} {
		key := store.Passkey{ID: "key-" + p.ID, Credential: []byte(`{}`)}
		sum := sha256.Sum256([]byte(p.Token)) // the guest's token goes on as the account's session
		ses := store.Session{TokenHash: hex.EncodeToString(sum[:])}
		if err := ts.DB.CreateAccount(context.Background(), store.Account{PlayerID: p.ID, Name: p.ID + "-acct", RecoveryHash: "x"}, key, ses); err != nil {
			t.Fatal(err)
		}
	}
	var tb struct {
		ID     string
		Status string
		Seats  []struct {
			Name    string
			Free    bool
			Invited bool
		}
	}
	body := map[string]any{"pace": "1d", "seats": []map[string]string{{"type": "me"}, {"type": "invite", "name": strings.ToUpper(bea.ID + "-acct")}}}
	if err := ann.Do(ctx, "POST", "/api/tables", body, &tb); err != nil {
		t.Fatal(err)
	}
	if tb.Status != "waiting" || !tb.Seats[1].Free || !tb.Seats[1].Invited || tb.Seats[1].Name != strings.ToUpper(bea.ID+"-acct") {
		t.Fatalf("the table with an invitation: %+v", tb)
	}
	var se *wsclient.StatusError
	if _, err := cy.Join(ctx, tb.ID); !errors.As(err, &se) || se.Status != http.StatusConflict {
		t.Fatalf("another player takes the kept seat: %v", err)
	}
	lines := myGames(t, ctx, bea.Client)
	if len(lines) != 1 || lines[0].ID != tb.ID || lines[0].Seat != 1 {
		t.Fatalf("Bea's games: %+v", lines)
	}
	var raw []struct{ Invited bool }
	if err := bea.Do(ctx, "GET", "/api/me/games", nil, &raw); err != nil || !raw[0].Invited {
		t.Fatalf("Bea's invitation: %+v %v", raw, err)
	}
	if seat, err := bea.Join(ctx, tb.ID); err != nil || seat != 1 {
		t.Fatalf("Bea takes her seat: %d %v", seat, err)
	}
	if err := ann.Do(ctx, "GET", "/api/tables/"+tb.ID, nil, &tb); err != nil || tb.Status != "playing" {
		t.Fatalf("after Bea took her seat: %+v %v", tb, err)
	}
	body = map[string]any{"seats": []map[string]string{{"type": "me"}, {"type": "invite", "name": ann.ID + "-acct"}}}
	if err := ann.Do(ctx, "POST", "/api/tables", body, nil); !errors.As(err, &se) || se.Status != http.StatusBadRequest {
		t.Errorf("inviting oneself: %v, want 400", err)
	}
}

// TestChatMarks: a chat line may carry at most two accents or marks on a
// character, as names may: "a" with 199 combining marks (the "Zalgo" text
// that runs over the lines around it) is refused and reaches nobody; two
// marks, and letters written decomposed, pass and arrive composed (NFC),
// and marks are counted after composing, as in names.
func TestChatMarks(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, time.Minute)
	ann, bea := newPlayer(t, ts, "Ann"), newPlayer(t, ts, "Bea")
	paceTable(t, ctx, ann, bea, "1d")
	for _, c := range []struct {
		text, want string // want "": refused
	}{
		{"a" + strings.Repeat("\u0301", 199), ""},
		{"Zalgo x\u0301\u0300\u0302 here", ""},        // three marks on an x
		{"a\u0301\u0301\u0301", "\u00e1\u0301\u0301"}, // NFC: á and two marks, as a name would be
		{"Tie\u0302\u0301ng Vie\u0323\u0302t", "Tiếng Việt"},
		{"a\u20dd\u20dd ok", "a\u20dd\u20dd ok"}, // enclosing marks are marks: two pass
		{"a\u20dd\u20dd\u20dd", ""},
	} {
		if err := ann.Send(ctx, map[string]string{"type": "chat", "text": c.text}); err != nil {
			t.Fatal(err)
		}
		m := nextChat(t, ctx, ann.Client)
		switch {
		case c.want == "" && (m.Type != "error" || m.Code != "bad_message"):
			t.Errorf("%q: %+v, want bad_message", c.text, m)
		case c.want != "" && (m.Type != "chat" || len(m.Lines) != 1 || m.Lines[0].Text != c.want):
			t.Errorf("%q: %+v, want the line %q", c.text, m, c.want)
		}
		if c.want != "" {
			if m := nextChat(t, ctx, bea.Client); m.Type != "chat" || m.Lines[0].Text != c.want {
				t.Errorf("%q reached Bea as %+v", c.text, m)
			}
		}
	}
	// Nothing refused reached Bea: her next chat message is a new line.
	// (Refused lines take nothing from the rate: three lines and this one
	// are Ann's burst.)
	if err := ann.Send(ctx, map[string]string{"type": "chat", "text": "last"}); err != nil {
		t.Fatal(err)
	}
	if m := nextChat(t, ctx, bea.Client); m.Type != "chat" || m.Lines[0].Text != "last" {
		t.Fatalf("Bea's next chat message: %+v", m)
	}
}
