package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/farkle/farkle/store"
)

func passkey(id, player string, count int) store.Passkey {
	cred, _ := json.Marshal(map[string]any{"id": id, "signCount": count})
	return store.Passkey{ID: id, PlayerID: player, Label: "key " + id, Credential: cred, Created: time.Unix(int64(100+len(id)), 0)}
}

func testAccounts(t *testing.T, s store.Store) {
	ctx := context.Background()
	for _, p := range []store.Player{{ID: "p1", Name: "Guest 1", TokenHash: "t1"}, {ID: "p2", Name: "Guest 2", TokenHash: "t2"}} {
		must(t, s.CreatePlayer(ctx, p))
	}
	_, err := s.Account(ctx, "p1")
	wantCode(t, err, store.ENOTFOUND, "a guest's account")
	ses := func(tok string) store.Session { return store.Session{TokenHash: tok, Device: "test"} }
	wantCode(t, s.CreateAccount(ctx, store.Account{PlayerID: "nobody", Name: "X", RecoveryHash: "r"}, passkey("k0", "nobody", 0), ses("sx")), store.ENOTFOUND, "an account of no player")
	must(t, s.CreateAccount(ctx, store.Account{PlayerID: "p1", Name: "Ann Lee", RecoveryHash: "r1", Created: time.Unix(50, 0)}, passkey("k1", "p1", 0), ses("a1")))
	// The guest's token ended with the account; the new session works.
	if _, err := s.PlayerByToken(ctx, "t1"); store.Code(err) != store.ENOTFOUND {
		t.Fatalf("the guest's token still works after its account was made: %v", err)
	}
	if p, err := s.PlayerByToken(ctx, "a1"); err != nil || p.ID != "p1" || p.TokenHash != "" {
		t.Fatalf("the account's first session = %+v, %v (TokenHash \"\": the token it was made with has ended)", p, err)
	}
	wantCode(t, s.CreateAccount(ctx, store.Account{PlayerID: "p1", Name: "Other", RecoveryHash: "r"}, passkey("k9", "p1", 0), ses("sx")), store.ECONFLICT, "a second account")
	wantCode(t, s.CreateAccount(ctx, store.Account{PlayerID: "p2", Name: "ANN  lee", RecoveryHash: "r"}, passkey("k2", "p2", 0), ses("sx")), store.ECONFLICT, "a name taken in another case")
	wantCode(t, s.CreateAccount(ctx, store.Account{PlayerID: "p2", Name: "Bea", RecoveryHash: "r"}, passkey("k1", "p2", 0), ses("sx")), store.ECONFLICT, "a passkey taken")
	if _, err := s.PlayerByToken(ctx, "t2"); err != nil {
		t.Fatalf("a refused account ended the guest's token: %v", err)
	}
	if _, err := s.Account(ctx, "p2"); store.Code(err) != store.ENOTFOUND {
		t.Fatalf("a refused account was stored: %v", err)
	}
	a, err := s.Account(ctx, "p1")
	must(t, err)
	if a.Name != "Ann Lee" || a.RecoveryHash != "r1" || !a.Created.Equal(time.Unix(50, 0)) {
		t.Fatalf("account %+v", a)
	}
	if p, _ := s.Player(ctx, "p1"); p.Name != "Ann Lee" {
		t.Fatalf("the player is called %q after the account was made", p.Name)
	}
	if a, err := s.AccountByName(ctx, "ann lee"); err != nil || a.PlayerID != "p1" {
		t.Fatalf("AccountByName(ann lee) = %+v, %v", a, err)
	}
	_, err = s.AccountByName(ctx, "Guest 2")
	wantCode(t, err, store.ENOTFOUND, "a guest's name")

	wantCode(t, s.AddPasskey(ctx, passkey("k3", "p2", 0), 0), store.ENOTFOUND, "a passkey for a guest")
	must(t, s.AddPasskey(ctx, passkey("k22", "p1", 0), 2))
	wantCode(t, s.AddPasskey(ctx, passkey("k22", "p1", 0), 0), store.ECONFLICT, "the same passkey twice")
	wantCode(t, s.AddPasskey(ctx, passkey("k23", "p1", 0), 2), store.ECONFLICT, "a third passkey over a max of 2")
	ks, err := s.Passkeys(ctx, "p1")
	must(t, err)
	if len(ks) != 2 || ks[0].ID != "k1" || ks[1].ID != "k22" || !ks[1].Used.IsZero() || ks[0].Label != "key k1" {
		t.Fatalf("passkeys %+v", ks)
	}
	cred := json.RawMessage(`{"id":"k1","signCount":7}`)
	must(t, s.UsePasskey(ctx, "k1", cred, time.Unix(200, 0)))
	k, err := s.Passkey(ctx, "k1")
	must(t, err)
	if !sameJSON(k.Credential, cred) || !k.Used.Equal(time.Unix(200, 0)) || k.PlayerID != "p1" {
		t.Fatalf("passkey after use %+v", k)
	}
	wantCode(t, s.UsePasskey(ctx, "nope", cred, time.Unix(1, 0)), store.ENOTFOUND, "using an unknown passkey")
	_, err = s.Passkey(ctx, "nope")
	wantCode(t, err, store.ENOTFOUND, "an unknown passkey")

	wantCode(t, s.RemovePasskey(ctx, "p2", "k1"), store.ENOTFOUND, "removing another's passkey")
	must(t, s.RemovePasskey(ctx, "p1", "k22"))
	wantCode(t, s.RemovePasskey(ctx, "p1", "k1"), store.ECONFLICT, "removing the last passkey")

	// A recovery code works once, even twice at the same moment, and
	// ends every session of the account but the one it starts.
	must(t, s.CreateSession(ctx, store.Session{TokenHash: "a2", PlayerID: "p1"}, 0))
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Go(func() {
			errs[i] = s.ReplaceRecovery(ctx, "p1", "r1", "r-next", store.Session{TokenHash: fmt.Sprint("rec", i)})
		})
	}
	wg.Wait()
	if (errs[0] == nil) == (errs[1] == nil) || store.Code(errs[0])+store.Code(errs[1]) != store.ECONFLICT {
		t.Fatalf("two uses of one recovery code: %v and %v", errs[0], errs[1])
	}
	won := "rec0"
	if errs[0] != nil {
		won = "rec1"
	}
	if got := tokensOf(t, s, "p1"); len(got) != 1 || got[0] != won {
		t.Fatalf("sessions after a recovery: %v, want only %s", got, won)
	}
	wantCode(t, s.ReplaceRecovery(ctx, "p1", "r1", "r-again", store.Session{TokenHash: "rec9"}), store.ECONFLICT, "a used recovery code")
	wantCode(t, s.ReplaceRecovery(ctx, "p2", "r", "x", store.Session{TokenHash: "rec9"}), store.ENOTFOUND, "a guest's recovery")
	if a, _ := s.Account(ctx, "p1"); a.RecoveryHash != "r-next" {
		t.Fatalf("recovery hash %q after its replacement", a.RecoveryHash)
	}
	if got := tokensOf(t, s, "p1"); len(got) != 1 || got[0] != won {
		t.Fatalf("a refused recovery changed the sessions: %v", got)
	}
}

// tokensOf lists the token hashes of the player's sessions, sorted.
func tokensOf(t *testing.T, s store.Store, playerID string) []string {
	t.Helper()
	ss, err := s.Sessions(context.Background(), playerID)
	must(t, err)
	var out []string
	for _, x := range ss {
		out = append(out, x.TokenHash)
	}
	slices.Sort(out)
	return out
}

// testLookAlikes: an account's name keeps out every name that looks like
// it, and AccountLike finds the account by any of them.
func testLookAlikes(t *testing.T, s store.Store) {
	ctx := context.Background()
	for i, name := range []string{"Victim", "Vіctim", "Ｖｉｃｔｉｍ", "VICTIM", "vіctim", "Tessa"} {
		must(t, s.CreatePlayer(ctx, store.Player{ID: fmt.Sprint("p", i), Name: name, TokenHash: fmt.Sprint("t", i)}))
	}
	must(t, s.CreateAccount(ctx, store.Account{PlayerID: "p0", Name: "Victim", RecoveryHash: "r"}, passkey("k0", "p0", 0), store.Session{TokenHash: "s0"}))
	for i, name := range []string{"Vіctim", "Ｖｉｃｔｉｍ", "VICTIM", "vіctim"} {
		wantCode(t, s.CreateAccount(ctx, store.Account{PlayerID: fmt.Sprint("p", i+1), Name: name, RecoveryHash: "r"}, passkey(fmt.Sprint("k", i+1), fmt.Sprint("p", i+1), 0),
			store.Session{TokenHash: fmt.Sprint("s", i+1)}), store.ECONFLICT, "the account name "+name+" beside Victim")
		if a, err := s.AccountLike(ctx, name); err != nil || a.PlayerID != "p0" {
			t.Fatalf("AccountLike(%q) = %+v, %v; want Victim's", name, a, err)
		}
	}
	must(t, s.CreateAccount(ctx, store.Account{PlayerID: "p5", Name: "Tessa", RecoveryHash: "r"}, passkey("k5", "p5", 0), store.Session{TokenHash: "s5"}))
	_, err := s.AccountLike(ctx, "Vera")
	wantCode(t, err, store.ENOTFOUND, "an account like a name none looks like")
	if _, err := s.AccountByName(ctx, "Vіctim"); store.Code(err) != store.ENOTFOUND {
		t.Fatalf("AccountByName finds a look-alike, not the name: %v", err)
	}
}
