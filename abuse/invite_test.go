package abuse

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/sqlite"
)

// account makes the client's player an account named name: the server
// stops, the account is written to its database, and it starts again (an
// account needs a passkey, which a test client has not).
func account(t *testing.T, s *server, c *client, name string) string {
	t.Helper()
	var me struct{ ID string }
	c.do("GET", "/api/me", nil).json(t, &me)
	s.stop()
	db, err := sqlite.Open(context.Background(), s.db)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(c.token)) // the guest's token goes on as the account's session
	err = db.CreateAccount(context.Background(), store.Account{PlayerID: me.ID, Name: name, RecoveryHash: "x"},
		store.Passkey{ID: "key-" + me.ID, Credential: []byte(`{}`)}, store.Session{TokenHash: hex.EncodeToString(sum[:])})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.start(); err != nil {
		t.Fatal(err)
	}
	return me.ID
}

// inviteTable asks for a table where c sits and a seat is kept for name.
func (c *client) inviteTable(name string) answer {
	c.t.Helper()
	return c.do("POST", "/api/tables", map[string]any{"pace": "1d", "seats": []map[string]string{me, {"type": "invite", "name": name}}})
}

// shapeOf is a JSON answer with each value replaced by its kind.
func shapeOf(t *testing.T, a answer) any {
	t.Helper()
	v, err := servertest.Shape(a.Body)
	if err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	return v
}

// TestInvitationFlood: 40 guests (the rate limits lifted, as from many
// addresses) send 400 invitations to one account at once, and as many to
// names nobody has. Bea gets no more than --max-invites-received, each
// guest sends no more than --max-invites-sent, every other invitation is
// answered 429 quota naming its cap; Bea's list of games stays that size
// (in bytes too), reading only her tables though hundreds are open; she
// declines and blocks under the flood (declineAndBlock); the server stays
// small and answers throughout.
func TestInvitationFlood(t *testing.T) {
	// --max-open-tables 50: the cap on invitations binds before the one on
	// tables (an invitation is a table).
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"), "--rate-address", "0", "--rate-player", "0", "--max-open-tables", "50", "--metrics-addr", "127.0.0.1:0")
	bea := s.client()
	bea.player("Bea")
	account(t, s, bea, "Bea")
	rss0, _ := s.memory()
	var mu sync.Mutex
	toBea, toNobody, quota := 0, 0, map[string]int{}
	var wg sync.WaitGroup
	for g := range 40 {
		c := s.client()
		c.player(fmt.Sprintf("Spammer %d", g))
		wg.Add(1)
		go func() {
			defer wg.Done()
			sent := 0
			for i := range 10 {
				for _, name := range []string{"Bea", fmt.Sprintf("Nobody %d %d", g, i)} {
					a := c.inviteTable(name)
					mu.Lock()
					switch {
					case a.Status == http.StatusCreated && name == "Bea":
						toBea++
						sent++
					case a.Status == http.StatusCreated:
						toNobody++
						sent++
					case a.Status == http.StatusTooManyRequests && strings.Contains(string(a.Body), `"quota"`):
						if strings.Contains(string(a.Body), "max-invites-received 20") {
							quota["received"]++
						} else if strings.Contains(string(a.Body), "max-invites-sent 10") {
							quota["sent"]++
						}
					default:
						t.Errorf("an invitation answered %s", a)
					}
					mu.Unlock()
				}
			}
			if sent > 10 {
				t.Errorf("a guest sent %d invitations with a cap of 10", sent)
			}
		}()
	}
	wg.Wait()
	t.Logf("800 invitations from 40 guests: %d to Bea, %d to names nobody has, refused %v", toBea, toNobody, quota)
	if toBea != 20 {
		t.Errorf("Bea got %d invitations, want the cap of 20", toBea)
	}
	if quota["received"] == 0 || quota["sent"] == 0 || toBea+toNobody+quota["received"]+quota["sent"] != 800 {
		t.Errorf("the refusals %v do not name the caps", quota)
	}
	before := s.metric("farkle_my_games_tables_total")
	a := bea.do("GET", "/api/me/games", nil)
	read := s.metric("farkle_my_games_tables_total") - before
	var lines []struct{ Invited bool }
	a.json(t, &lines)
	t.Logf("Bea's games: %d lines, %d bytes, %v tables read; %d tables open", len(lines), len(a.Body), read, toBea+toNobody)
	if a.Status != http.StatusOK || len(lines) != 20 || read != 20 {
		t.Errorf("Bea's games: %d lines after reading %v tables (%s), want her 20 invitations", len(lines), read, a)
	}
	if len(a.Body) > 32<<10 {
		t.Errorf("Bea's games take %d bytes", len(a.Body))
	}
	declineAndBlock(t, s, bea, a)
	rss1, peak := s.memory()
	t.Logf("RSS %d → %d MiB (peak %d MiB)", rss0/mib, rss1/mib, peak/mib)
	if peak > 400*mib {
		t.Errorf("the server peaked at %d MiB", peak/mib)
	}
	s.alive()
}

// invitationLine is a line of GET /api/me/games that is an invitation.
type invitationLine struct {
	ID        string
	Invited   bool
	InvitedBy struct{ ID string } `json:"invited_by"`
}

// declineAndBlock: Bea, her list full of the flood's invitations (mine,
// the answer that listed them), declines five and blocks the player who
// sent the sixth: the five leave her list and their seats are free for
// anyone, a second decline of one finds no invitation (404), and every
// invitation of the blocked player leaves her list. Then 30 new guests
// invite her at once: the declined and blocked ones no longer count
// toward her cap, so exactly as many get through as left her list, the
// rest refused 429 naming the cap, and none of the blocked player's shows.
func declineAndBlock(t *testing.T, s *server, bea *client, mine answer) {
	t.Helper()
	var lines []invitationLine
	mine.json(t, &lines)
	if len(lines) < 6 {
		t.Fatalf("Bea has %d invitations", len(lines))
	}
	gone := map[string]bool{}
	for _, l := range lines[:5] {
		if a := bea.do("POST", "/api/tables/"+l.ID+"/decline", nil); a.Status != http.StatusOK {
			t.Fatalf("Bea declines %s: %s", l.ID, a)
		}
		gone[l.ID] = true
		var tb struct{ Seats []map[string]any }
		bea.do("GET", "/api/tables/"+l.ID, nil).json(t, &tb)
		if len(tb.Seats) != 2 || tb.Seats[1]["invited"] != nil || tb.Seats[1]["free"] != true {
			t.Errorf("the seat Bea declined at %s: %v, want a free seat for anyone", l.ID, tb.Seats)
		}
	}
	if a := bea.do("POST", "/api/tables/"+lines[0].ID+"/decline", nil); a.Status != http.StatusNotFound {
		t.Errorf("Bea declines %s again: %s, want 404", lines[0].ID, a)
	}
	blocked := lines[5].InvitedBy.ID
	for _, l := range lines[5:] {
		if l.InvitedBy.ID == blocked {
			gone[l.ID] = true
		}
	}
	if a := bea.do("POST", "/api/me/blocks", map[string]string{"player": blocked}); a.Status != http.StatusOK {
		t.Fatalf("Bea blocks %s: %s", blocked, a)
	}
	check := func(when string, want int) {
		t.Helper()
		var now []invitationLine
		bea.do("GET", "/api/me/games", nil).json(t, &now)
		if len(now) != want {
			t.Errorf("Bea's games %s: %d lines, want %d", when, len(now), want)
		}
		for _, l := range now {
			if gone[l.ID] || l.InvitedBy.ID == blocked || !l.Invited {
				t.Errorf("Bea's games %s list %+v", when, l)
			}
		}
	}
	check("after five declines and a block", len(lines)-len(gone))
	var mu sync.Mutex
	got, refused := 0, 0
	var wg sync.WaitGroup
	for g := range 30 {
		c := s.client()
		c.player(fmt.Sprintf("Second %d", g))
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := c.inviteTable("Bea")
			mu.Lock()
			defer mu.Unlock()
			switch {
			case a.Status == http.StatusCreated:
				got++
			case a.Status == http.StatusTooManyRequests && strings.Contains(string(a.Body), "max-invites-received 20"):
				refused++
			default:
				t.Errorf("an invitation of the second flood answered %s", a)
			}
		}()
	}
	wg.Wait()
	t.Logf("Bea declined 5 and blocked a player of %d; of 30 more invitations %d got through, %d refused", len(gone)-5, got, refused)
	if got != len(gone) || got+refused != 30 {
		t.Errorf("the second flood: %d invitations got through and %d were refused, want %d through", got, refused, len(gone))
	}
	check("after the second flood", len(lines))
}

// TestInvitationNamesAnswerAlike: an invitation does not tell which names
// accounts have. Inviting an account, the same name in capitals, a name
// nobody has and a guest's name all answer 201 with the same fields and
// the seat as the name was written; another player's join of the kept seat
// is refused alike; nobody but the account sees an invitation.
func TestInvitationNamesAnswerAlike(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"))
	bea := s.client()
	bea.player("Bea")
	account(t, s, bea, "Beatrice")
	ann, cy, di := s.client(), s.client(), s.client()
	ann.player("Ann")
	cy.player("Cy")
	di.player("Di")
	var first answer
	for i, name := range []string{"Beatrice", "BEATRICE", "Nobody", "Cy"} {
		a := ann.inviteTable(name)
		if a.Status != http.StatusCreated {
			t.Fatalf("inviting %q: %s", name, a)
		}
		var tb struct {
			ID    string
			Seats []map[string]any
		}
		a.json(t, &tb)
		if want := (map[string]any{"name": name, "free": true, "invited": true}); !reflect.DeepEqual(tb.Seats[1], want) {
			t.Errorf("inviting %q: the seat %v, want %v", name, tb.Seats[1], want)
		}
		if i == 0 {
			first = a
		} else if !reflect.DeepEqual(shapeOf(t, a), shapeOf(t, first)) {
			t.Errorf("inviting %q: %s, unlike inviting an account: %s", name, a, first)
		}
		j := di.do("POST", "/api/tables/"+tb.ID+"/join", map[string]int{"seat": 1})
		if want := fmt.Sprintf("seat 1 is kept for %s, who was invited", name); j.Status != http.StatusConflict || !strings.Contains(string(j.Body), want) {
			t.Errorf("Di takes the seat kept for %q: %s, want 409 %q", name, j, want)
		}
	}
	for _, c := range []struct {
		who  *client
		want int
	}{{bea, 2}, {cy, 0}, {di, 0}} {
		var lines []struct{ Invited bool }
		c.who.do("GET", "/api/me/games", nil).json(t, &lines)
		if len(lines) != c.want {
			t.Errorf("a player's games list %d invitations, want %d", len(lines), c.want)
		}
	}
}

// TestZalgoChat: a chat line of "a" and 199 combining marks is refused
// (bad_message, naming the bound) and reaches nobody: a client connecting
// afterwards gets no chat history; a line with two marks on a character
// passes.
func TestZalgoChat(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"))
	ann, bea := s.client(), s.client()
	ann.player("Ann")
	bea.player("Bea")
	id := tableID(t, ann.table("classic", me, map[string]string{"type": "human"}))
	if a := bea.do("POST", "/api/tables/"+id+"/join", nil); a.Status != http.StatusOK {
		t.Fatalf("Bea joins: %s", a)
	}
	ctx := deadline(t, time.Minute)
	conn, _, err := dialWS(ctx, s, ann, id)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	next := func(c *websocket.Conn) (typ, code, msg string) {
		t.Helper()
		for {
			_, data, err := c.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var m struct{ Type, Code, Message string }
			_ = json.Unmarshal(data, &m)
			if m.Type == "chat" || m.Type == "error" {
				return m.Type, m.Code, m.Message
			}
		}
	}
	say := func(text string) {
		b, _ := json.Marshal(map[string]string{"type": "chat", "text": text})
		if err := conn.Write(ctx, websocket.MessageText, b); err != nil {
			t.Fatal(err)
		}
	}
	say("a" + strings.Repeat("\u0301", 199))
	if typ, code, msg := next(conn); typ != "error" || code != "bad_message" || !strings.Contains(msg, "2 accents or marks") {
		t.Fatalf("the Zalgo line: %s %s %q, want bad_message naming the bound", typ, code, msg)
	}
	late, _, err := dialWS(ctx, s, bea, id)
	if err != nil {
		t.Fatal(err)
	}
	defer late.CloseNow()
	say("Tie\u0302\u0301ng Vie\u0323\u0302t")
	if typ, _, _ := next(conn); typ != "chat" {
		t.Fatalf("a line with two marks on a character: %s", typ)
	}
	// Bea, connected after the Zalgo line, never gets it (nothing was
	// kept): her first chat message holds the good line, whether it comes
	// as the history she joins with or live, as the race between her join
	// and Ann's line falls.
	_, data, err := late.Read(ctx)
	if err != nil || !strings.Contains(string(data), `"welcome"`) {
		t.Fatalf("Bea's first message: %v %.80s", err, data)
	}
	for {
		_, data, err = late.Read(ctx)
		if err != nil {
			t.Fatalf("Bea's chat: %v", err)
		}
		if strings.Contains(string(data), "\u0301\u0301\u0301") {
			t.Fatalf("the refused Zalgo line reached Bea: %.120s", data)
		}
		if strings.Contains(string(data), `"type":"chat"`) {
			break
		}
	}
	if !strings.Contains(string(data), "Tiếng Việt") {
		t.Fatalf("Bea's first chat message: %s", data)
	}
	s.alive()
}

// TestAbandonedTableEnds: with no cap on a game's length (--max-turns 0),
// a table its people left is not played by the server for ever: each
// seat's clock runs out turn after turn, the timeouts count up in a row,
// and at the third the seat resigns, so the game ends with a record that
// verifies. A table of one person against a bot is not played either: its
// clock waits for the person (nobody loses by stepping away from a bot),
// and once they have been away --adjourn-after it is adjourned: no
// resignation, no move made for them, and it no longer counts against
// their cap on open tables (--max-open-tables 2: two new tables are taken
// with it adjourned). Resuming it is within that cap (refused, 429, while
// the player has two open tables; taken once one has ended), and it is
// playing again as it stood, waiting for the player.
func TestAbandonedTableEnds(t *testing.T) {
	s := startServer(t, filepath.Join(t.TempDir(), "farkle.db"), "--max-turns", "0", "--turn-clock", "1s", "--clock-forfeits", "3", "--bot-delay", "20ms",
		"--adjourn-after", "2s", "--max-open-tables", "2")
	ann, bea := s.client(), s.client()
	ann.player("Ann")
	bea.player("Bea")
	ctx := deadline(t, 3*time.Minute)
	vsBot := tableID(t, ann.table("classic", me, bot("steady")))
	people := tableID(t, ann.table("classic", me, map[string]string{"type": "human"}))
	if a := bea.do("POST", "/api/tables/"+people+"/join", nil); a.Status != http.StatusOK {
		t.Fatalf("Bea joins: %s", a)
	}
	// Both come, see their table, and leave.
	for _, c := range []struct {
		who *client
		id  string
	}{{ann, vsBot}, {ann, people}, {bea, people}} {
		conn, _, err := dialWS(ctx, s, c.who, c.id)
		if err != nil {
			t.Fatal(err)
		}
		if _, data, err := conn.Read(ctx); err != nil || !strings.Contains(string(data), `"welcome"`) {
			t.Fatalf("welcome: %v %.80s", err, data)
		}
		conn.Close(websocket.StatusNormalClosure, "")
	}
	resigns := func(id string) int {
		a := ann.do("GET", "/api/tables/"+id+"/record", nil)
		var rec struct {
			Actions []struct {
				Type string `json:"type"`
			} `json:"actions"`
		}
		a.json(t, &rec)
		n := 0
		for _, e := range rec.Actions {
			if e.Type == "resign" {
				n++
			}
		}
		return n
	}
	waitStatus(t, ann, people, "over", 2*time.Minute)
	if resigns(people) == 0 {
		t.Errorf("table %s ended with no resignation", people)
	}
	verifyRecord(t, ann, people)

	waitStatus(t, ann, vsBot, "adjourned", time.Minute)
	if n := resigns(vsBot); n != 0 {
		t.Errorf("the adjourned table against a bot has %d resignations, want none", n)
	}
	state := func() (string, int) {
		a := ann.do("GET", "/api/tables/"+vsBot, nil)
		var tb struct {
			Status string
			State  struct{ Actor int }
		}
		tb.State.Actor = -1 // a state without an actor fails below
		a.json(t, &tb)
		return tb.Status, tb.State.Actor
	}
	if st, actor := state(); actor != 0 {
		t.Errorf("the adjourned table is %s with seat %d to act, want Ann (seat 0)", st, actor)
	}
	// Adjourned, it counts against no cap: two new tables are taken.
	bots := tableID(t, ann.table("classic", bot("steady"), bot("cautious")))
	tableID(t, ann.table("classic", me, map[string]string{"type": "human"}))
	if a := ann.do("POST", "/api/tables/"+vsBot+"/resume", nil); a.Status != http.StatusTooManyRequests || !strings.Contains(string(a.Body), "max-open-tables") {
		t.Fatalf("resuming with two open tables (max-open-tables 2): %s, want 429 naming the cap", a)
	}
	if a := bea.do("POST", "/api/tables/"+vsBot+"/resume", nil); a.Status != http.StatusForbidden {
		t.Fatalf("Bea resumes Ann's game: %s, want 403", a)
	}
	waitStatus(t, ann, bots, "over", 2*time.Minute)
	if a := ann.do("POST", "/api/tables/"+vsBot+"/resume", nil); a.Status != http.StatusOK {
		t.Fatalf("resuming with one open table: %s", a)
	}
	if st, actor := state(); st != "playing" || actor != 0 {
		t.Errorf("the resumed table is %s with seat %d to act, want playing and waiting for Ann (seat 0)", st, actor)
	}
	if a := ann.do("POST", "/api/tables/"+vsBot+"/resume", nil); a.Status != http.StatusConflict {
		t.Fatalf("resuming a playing table: %s, want 409", a)
	}
	s.alive()
}
