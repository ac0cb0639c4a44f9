package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
	"github.com/farkle/farkle/store"
	"github.com/farkle/farkle/store/sqlite"
)

// shape is a JSON answer with each value replaced by its kind.
func shape(t *testing.T, data string) any {
	t.Helper()
	v, err := servertest.Shape([]byte(data))
	if err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	return v
}

// callLog is a store that logs the calls of the methods an invitation's
// path could take, so that two requests' work can be compared.
type callLog struct {
	store.Store
	mu    sync.Mutex
	calls []string
}

func (c *callLog) log(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, name)
}

func (c *callLog) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.calls
	c.calls = nil
	return out
}

func (c *callLog) AccountByName(ctx context.Context, name string) (store.Account, error) {
	c.log("AccountByName")
	return c.Store.AccountByName(ctx, name)
}
func (c *callLog) Account(ctx context.Context, id string) (store.Account, error) {
	c.log("Account")
	return c.Store.Account(ctx, id)
}
func (c *callLog) Player(ctx context.Context, id string) (store.Player, error) {
	c.log("Player")
	return c.Store.Player(ctx, id)
}
func (c *callLog) CountInvitations(ctx context.Context, f store.InvitationFilter) (int, error) {
	c.log("CountInvitations")
	return c.Store.CountInvitations(ctx, f)
}
func (c *callLog) CountTables(ctx context.Context, f store.TableFilter) (int, error) {
	c.log("CountTables")
	return c.Store.CountTables(ctx, f)
}
func (c *callLog) Tables(ctx context.Context, f store.TableFilter) ([]store.Table, error) {
	c.log("Tables")
	return c.Store.Tables(ctx, f)
}
func (c *callLog) CreateTable(ctx context.Context, tb store.Table) error {
	c.log("CreateTable")
	return c.Store.CreateTable(ctx, tb)
}

// TestInviteAnswersAlike: an invitation never tells whether an account has
// the name. Inviting an account (as its name is written, or in another
// case), a name no account has, and a guest's name answer the same
// status with the same fields, their seats alike (the name as written,
// free, kept), after the same work in the store; another player's join is
// refused alike; and a name that is no valid name is refused alike too.
func TestInviteAnswersAlike(t *testing.T) {
	db := openDB(t)
	logged := &callLog{Store: db}
	ts := startOn(t, "127.0.0.1:0", logged, server.Options{})
	ann, bea, cy, di := newPlayer(t, ts, "Ann"), newPlayer(t, ts, "Bea"), newPlayer(t, ts, "Cy"), newPlayer(t, ts, "Di")
	makeAccount(t, db, bea, "Beatrice")
	logged.take()
	var first answer
	var firstCalls []string
	for i, name := range []string{"Beatrice", "BEATRICE", "Nobody", "Cy", "Nobody"} {
		a := invite(t, ts, ann, name)
		calls := logged.take()
		if a.Status != http.StatusCreated {
			t.Fatalf("inviting %q: %s", name, a)
		}
		if got, want := seatOf(t, a.Body, 1), (map[string]any{"name": name, "free": true, "invited": true}); !reflect.DeepEqual(got, want) {
			t.Errorf("inviting %q: the seat %v, want %v", name, got, want)
		}
		if i == 0 {
			first, firstCalls = a, calls
			continue
		}
		if !reflect.DeepEqual(shape(t, a.Body), shape(t, first.Body)) {
			t.Errorf("inviting %q answers %s, unlike inviting an account: %s", name, a, first)
		}
		if !reflect.DeepEqual(calls, firstCalls) {
			t.Errorf("inviting %q took the store calls %v, inviting an account %v", name, calls, firstCalls)
		}
		id := idOf(t, a)
		j := call(t, ts, di.Token, "POST", "/api/tables/"+id+"/join", map[string]int{"seat": 1})
		if want := fmt.Sprintf("seat 1 is kept for %s, who was invited", name); j.Status != http.StatusConflict || !strings.Contains(j.Body, want) {
			t.Errorf("Di joins the seat kept for %q: %s, want 409 %q", name, j, want)
		}
		g := call(t, ts, "", "GET", "/api/tables/"+id, nil)
		if !reflect.DeepEqual(shape(t, g.Body), shape(t, call(t, ts, "", "GET", "/api/tables/"+idOf(t, first), nil).Body)) {
			t.Errorf("the table inviting %q reads unlike the one inviting an account: %s", name, g)
		}
	}
	if len(firstCalls) == 0 || !strings.Contains(strings.Join(firstCalls, " "), "AccountByName") {
		t.Fatalf("the store calls of an invitation %v: the log sees nothing", firstCalls)
	}
	// Only Bea sees an invitation, and only the two to her account.
	if lines := myGames(t, ctxT(t, time.Minute), bea.Client); len(lines) != 2 {
		t.Errorf("Beatrice's games: %+v, want her two invitations", lines)
	}
	if lines := myGames(t, ctxT(t, time.Minute), cy.Client); len(lines) != 0 {
		t.Errorf("the guest Cy's games: %+v, want none (invitations are for accounts)", lines)
	}
	for _, name := range []string{"Steady bot", strings.Repeat("x", 25)} {
		a, b := invite(t, ts, ann, name), invite(t, ts, ann, strings.ToUpper(name))
		if a.Status != http.StatusBadRequest || !reflect.DeepEqual(shape(t, a.Body), shape(t, b.Body)) {
			t.Errorf("inviting %q: %s and %s, want the same 400", name, a, b)
		}
	}
	if a := invite(t, ts, bea, "beatrice"); a.Status != http.StatusBadRequest {
		t.Errorf("Beatrice invites herself: %s, want 400", a)
	}
}

// openDB opens a SQLite store in the test's directory; the server started
// on it closes it.
func openDB(t *testing.T) *sqlite.DB {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "farkle.db"))
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// TestInviteCaps: a player may have sent at most --max-invites-sent open
// invitations and have at most --max-invites-received kept for it, past
// which a new table is refused with 429 quota naming the cap; an invitation
// to a name no account has counts and is refused alike; a declined
// invitation no longer counts; and one from a player the invitee blocks is
// neither counted for the invitee nor shown to it, while its inviter gets
// the answer any invitation gets.
func TestInviteCaps(t *testing.T) {
	ts := start(t, "", server.Options{MaxInvitesSent: 2, MaxInvitesReceived: 3})
	ctx := ctxT(t, time.Minute)
	ann, bea, cy, di, ed := newPlayer(t, ts, "Ann"), newPlayer(t, ts, "Bea"), newPlayer(t, ts, "Cy"), newPlayer(t, ts, "Di"), newPlayer(t, ts, "Ed")
	makeAccount(t, ts.DB, bea, "Bea")
	created := func(a answer, what string) string {
		t.Helper()
		if a.Status != http.StatusCreated {
			t.Fatalf("%s: %s", what, a)
		}
		return idOf(t, a)
	}
	quota := func(a answer, what, flag string) map[string]any {
		t.Helper()
		var e map[string]any
		if a.Status != http.StatusTooManyRequests || json.Unmarshal([]byte(a.Body), &e) != nil || e["code"] != "quota" || !strings.Contains(fmt.Sprint(e["error"]), flag) {
			t.Fatalf("%s: %s, want 429 quota naming %s", what, a, flag)
		}
		return e
	}
	annFirst := created(invite(t, ts, ann, "Bea"), "Ann's first invitation")
	created(invite(t, ts, ann, "bea"), "Ann's second invitation")
	quota(invite(t, ts, ann, "Ghost"), "Ann's third invitation", "max-invites-sent 2")
	cyFirst := created(invite(t, ts, cy, "Bea"), "Cy's invitation")
	full := quota(invite(t, ts, di, "Bea"), "a fourth invitation to Bea", "max-invites-received 3")
	for i, p := range []*player{ed, newPlayer(t, ts, "Fay"), newPlayer(t, ts, "Gus")} {
		created(invite(t, ts, p, "Ghost"), fmt.Sprintf("invitation %d to Ghost", i+1))
	}
	ghostFull := quota(invite(t, ts, di, "Ghost"), "a fourth invitation to Ghost", "max-invites-received 3")
	if strings.Replace(fmt.Sprint(ghostFull["error"]), "Ghost", "Bea", 1) != fmt.Sprint(full["error"]) {
		t.Errorf("a full name no account has answers %v, a full account %v", ghostFull, full)
	}
	if lines := myGames(t, ctx, bea.Client); len(lines) != 3 {
		t.Fatalf("Bea's games: %d lines, want her 3 invitations", len(lines))
	}

	// A decline makes room.
	if a := call(t, ts, bea.Token, "POST", "/api/tables/"+annFirst+"/decline", nil); a.Status != http.StatusOK {
		t.Fatalf("Bea declines: %s", a)
	}
	created(invite(t, ts, di, "Bea"), "Di's invitation after Bea declined one")
	quota(invite(t, ts, ed, "Bea"), "Ed's invitation to a full Bea", "max-invites-received 3")

	// Bea blocks Cy: Cy's invitations leave her list and her count, and
	// Cy's next invitation answers as any accepted one does.
	if a := call(t, ts, bea.Token, "POST", "/api/me/blocks", map[string]string{"player": cy.ID}); a.Status != http.StatusOK {
		t.Fatalf("Bea blocks Cy: %s", a)
	}
	blocked := invite(t, ts, cy, "Bea")
	created(blocked, "Cy's invitation after Bea blocked Cy")
	if got, want := seatOf(t, blocked.Body, 1), (map[string]any{"name": "Bea", "free": true, "invited": true}); !reflect.DeepEqual(got, want) {
		t.Errorf("Cy's blocked invitation shows %v, want %v", got, want)
	}
	if !reflect.DeepEqual(shape(t, blocked.Body), shape(t, invite(t, ts, ed, "Bea").Body)) {
		t.Errorf("a blocked invitation answers unlike an accepted one: %s", blocked)
	}
	var lines []struct {
		ID        string
		Invited   bool
		InvitedBy struct{ ID, Name string } `json:"invited_by"`
	}
	if err := bea.Do(ctx, "GET", "/api/me/games", nil, &lines); err != nil {
		t.Fatal(err)
	}
	var by []string
	for _, l := range lines {
		if !l.Invited || l.ID == cyFirst {
			t.Errorf("Bea's games list %+v", l)
		}
		by = append(by, l.InvitedBy.Name)
	}
	sort.Strings(by)
	if fmt.Sprint(by) != "[Ann Di Ed]" {
		t.Errorf("Bea is shown invitations from %v, want Ann, Di and Ed", by)
	}
}

// TestDeclineFreesTheSeat: Bea declines Ann's invitation: the seat becomes
// an ordinary free seat (no name, not kept), Ann's page is told at once
// with a new welcome, anyone may take the seat, and the invitation leaves
// Bea's list. A decline without an invitation is 404, after the table
// started 404 too (the seat is taken), at no table 404.
func TestDeclineFreesTheSeat(t *testing.T) {
	ts := start(t, "", server.Options{})
	ctx := ctxT(t, time.Minute)
	ann, bea, cy := newPlayer(t, ts, "Ann"), newPlayer(t, ts, "Bea"), newPlayer(t, ts, "Cy")
	makeAccount(t, ts.DB, bea, "Bea")
	id := idOf(t, invite(t, ts, ann, "Bea"))
	if err := ann.Connect(ctx, id); err != nil {
		t.Fatal(err)
	}
	defer ann.Close()
	welcome := waitFor(t, ctx, ann.Client, "Ann's welcome", func(m wsclient.Msg) bool { return m.Type == "welcome" })
	if s := seatOf(t, tableOf(t, welcome), 1); s["invited"] != true {
		t.Fatalf("the kept seat in Ann's welcome: %v", s)
	}
	if a := call(t, ts, cy.Token, "POST", "/api/tables/"+id+"/decline", nil); a.Status != http.StatusNotFound {
		t.Fatalf("Cy declines an invitation she does not have: %s, want 404", a)
	}
	a := call(t, ts, bea.Token, "POST", "/api/tables/"+id+"/decline", nil)
	if a.Status != http.StatusOK || !strings.Contains(a.Body, `"seats":[1]`) {
		t.Fatalf("Bea declines: %s", a)
	}
	told := waitFor(t, ctx, ann.Client, "Ann told of the decline", func(m wsclient.Msg) bool { return m.Type == "welcome" })
	if s, want := seatOf(t, tableOf(t, told), 1), (map[string]any{"name": "", "free": true}); !reflect.DeepEqual(s, want) {
		t.Fatalf("the seat in Ann's new welcome: %v, want %v", s, want)
	}
	if lines := myGames(t, ctx, bea.Client); len(lines) != 0 {
		t.Fatalf("Bea's games after declining: %+v", lines)
	}
	if a := call(t, ts, bea.Token, "POST", "/api/tables/"+id+"/decline", nil); a.Status != http.StatusNotFound {
		t.Fatalf("Bea declines again: %s, want 404", a)
	}
	if seat, err := cy.Join(ctx, id); err != nil || seat != 1 {
		t.Fatalf("Cy takes the freed seat: %d %v", seat, err)
	}
	if a := call(t, ts, bea.Token, "POST", "/api/tables/nope/decline", nil); a.Status != http.StatusNotFound {
		t.Fatalf("a decline at no table: %s, want 404", a)
	}
	if a := call(t, ts, "", "POST", "/api/tables/"+id+"/decline", nil); a.Status < 400 || a.Status >= 500 {
		t.Fatalf("a decline without a player: %s, want a refusal", a)
	}
}

// tableOf returns the table of a welcome message as JSON.
func tableOf(t *testing.T, m wsclient.Msg) string {
	t.Helper()
	var w struct{ Table json.RawMessage }
	if err := json.Unmarshal(m.Raw, &w); err != nil {
		t.Fatal(err)
	}
	return string(w.Table)
}

// TestBlocks: the blocks of a player are listed with names, the latest
// first; blocking again changes nothing; unblocking brings the blocked
// player's invitations back; blocking oneself is 400, a player that does
// not exist 404, past --max-blocks 429 quota.
func TestBlocks(t *testing.T) {
	ts := start(t, "", server.Options{MaxBlocks: 2})
	ctx := ctxT(t, time.Minute)
	ann, bea, cy, di := newPlayer(t, ts, "Ann"), newPlayer(t, ts, "Bea"), newPlayer(t, ts, "Cy"), newPlayer(t, ts, "Di")
	makeAccount(t, ts.DB, bea, "Bea")
	id := idOf(t, invite(t, ts, ann, "Bea"))
	for _, p := range []*player{cy, ann, ann} {
		if a := call(t, ts, bea.Token, "POST", "/api/me/blocks", map[string]string{"player": p.ID}); a.Status != http.StatusOK {
			t.Fatalf("Bea blocks %s: %s", p.ID, a)
		}
	}
	var blocks []struct{ Player, Name string }
	if err := bea.Do(ctx, "GET", "/api/me/blocks", nil, &blocks); err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 || blocks[0].Player != ann.ID || blocks[0].Name != "Ann" || blocks[1].Player != cy.ID {
		t.Fatalf("Bea's blocks: %+v", blocks)
	}
	if lines := myGames(t, ctx, bea.Client); len(lines) != 0 {
		t.Fatalf("Bea's games with Ann blocked: %+v", lines)
	}
	for _, c := range []struct {
		player string
		status int
	}{{di.ID, http.StatusTooManyRequests}, {bea.ID, http.StatusBadRequest}, {"nobody", http.StatusNotFound}, {"", http.StatusBadRequest}} {
		if a := call(t, ts, bea.Token, "POST", "/api/me/blocks", map[string]string{"player": c.player}); a.Status != c.status {
			t.Errorf("Bea blocks %q: %s, want %d", c.player, a, c.status)
		}
	}
	if a := call(t, ts, bea.Token, "DELETE", "/api/me/blocks/"+ann.ID, nil); a.Status != http.StatusOK {
		t.Fatalf("Bea unblocks Ann: %s", a)
	}
	if lines := myGames(t, ctx, bea.Client); len(lines) != 1 || lines[0].ID != id {
		t.Fatalf("Bea's games after unblocking Ann: %+v", lines)
	}
}

// TestMyGamesReadsTheIndex: GET /api/me/games reads the player's own open
// tables and invitations, however many other tables are open: the count of
// tables it read (farkle_my_games_tables_total) grows by exactly those, and
// the answer lists exactly those.
func TestMyGamesReadsTheIndex(t *testing.T) {
	ts := start(t, "", server.Options{MaxOpenTables: -1, MaxInvitesSent: -1, MaxInvitesReceived: -1})
	ctx := ctxT(t, time.Minute)
	bea, others := newPlayer(t, ts, "Bea"), newPlayer(t, ts, "Others")
	makeAccount(t, ts.DB, bea, "Bea")
	for range 120 { // tables Bea has nothing to do with
		if a := invite(t, ts, others, "Somebody"); a.Status != http.StatusCreated {
			t.Fatal(a)
		}
	}
	for range 3 {
		if a := invite(t, ts, others, "Bea"); a.Status != http.StatusCreated {
			t.Fatal(a)
		}
	}
	if a := call(t, ts, bea.Token, "POST", "/api/tables", map[string]any{"rules": shortRules, "seats": []map[string]string{{"type": "me"}, {"type": "human"}}}); a.Status != http.StatusCreated {
		t.Fatal(a)
	}
	if a := call(t, ts, bea.Token, "POST", "/api/tables", map[string]any{"rules": shortRules, "pace": "1d", "seats": []map[string]string{{"type": "me"}, {"type": "bot", "level": "steady"}}}); a.Status != http.StatusCreated {
		t.Fatal(a)
	}
	before := metricValue(t, ts, "farkle_my_games_tables_total")
	lines := myGames(t, ctx, bea.Client)
	after := metricValue(t, ts, "farkle_my_games_tables_total")
	if len(lines) != 5 || after-before != 5 {
		t.Fatalf("Bea's games: %d lines after reading %v tables, want 5 and 5 (of %d open)", len(lines), after-before, 125)
	}
}

// metricValue reads a metric without labels from the server's metrics.
func metricValue(t *testing.T, ts *testServer, name string) float64 {
	t.Helper()
	resp, err := http.Get(ts.Metrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
	}
	t.Fatalf("no metric %s", name)
	return 0
}
