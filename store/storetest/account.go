package storetest

import (
	"context"
	"encoding/json"
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
	wantCode(t, s.CreateAccount(ctx, store.Account{PlayerID: "nobody", Name: "X", RecoveryHash: "r"}, passkey("k0", "nobody", 0)), store.ENOTFOUND, "an account of no player")
	must(t, s.CreateAccount(ctx, store.Account{PlayerID: "p1", Name: "Ann Lee", RecoveryHash: "r1", Created: time.Unix(50, 0)}, passkey("k1", "p1", 0)))
	wantCode(t, s.CreateAccount(ctx, store.Account{PlayerID: "p1", Name: "Other", RecoveryHash: "r"}, passkey("k9", "p1", 0)), store.ECONFLICT, "a second account")
	wantCode(t, s.CreateAccount(ctx, store.Account{PlayerID: "p2", Name: "ANN  lee", RecoveryHash: "r"}, passkey("k2", "p2", 0)), store.ECONFLICT, "a name taken in another case")
	wantCode(t, s.CreateAccount(ctx, store.Account{PlayerID: "p2", Name: "Bea", RecoveryHash: "r"}, passkey("k1", "p2", 0)), store.ECONFLICT, "a passkey taken")
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

	wantCode(t, s.AddPasskey(ctx, passkey("k3", "p2", 0)), store.ENOTFOUND, "a passkey for a guest")
	must(t, s.AddPasskey(ctx, passkey("k22", "p1", 0)))
	wantCode(t, s.AddPasskey(ctx, passkey("k22", "p1", 0)), store.ECONFLICT, "the same passkey twice")
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

	// A recovery code works once, even twice at the same moment.
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = s.ReplaceRecovery(ctx, "p1", "r1", "r-next") }()
	}
	wg.Wait()
	if (errs[0] == nil) == (errs[1] == nil) || store.Code(errs[0])+store.Code(errs[1]) != store.ECONFLICT {
		t.Fatalf("two uses of one recovery code: %v and %v", errs[0], errs[1])
	}
	wantCode(t, s.ReplaceRecovery(ctx, "p1", "r1", "r-again"), store.ECONFLICT, "a used recovery code")
	wantCode(t, s.ReplaceRecovery(ctx, "p2", "r", "x"), store.ENOTFOUND, "a guest's recovery")
	if a, _ := s.Account(ctx, "p1"); a.RecoveryHash != "r-next" {
		t.Fatalf("recovery hash %q after its replacement", a.RecoveryHash)
	}

	must(t, s.CreateSession(ctx, store.Session{TokenHash: "s1", PlayerID: "p1"}))
	wantCode(t, s.CreateSession(ctx, store.Session{TokenHash: "s1", PlayerID: "p1"}), store.ECONFLICT, "a session twice")
	wantCode(t, s.CreateSession(ctx, store.Session{TokenHash: "s2", PlayerID: "p2"}), store.ENOTFOUND, "a session of a guest")
	p, err := s.PlayerBySession(ctx, "s1")
	must(t, err)
	if p.ID != "p1" || p.Name != "Ann Lee" {
		t.Fatalf("PlayerBySession = %+v", p)
	}
	if _, err := s.PlayerByToken(ctx, "s1"); store.Code(err) != store.ENOTFOUND {
		t.Fatalf("a session's token is a guest token: %v", err)
	}
	must(t, s.DeleteSession(ctx, "s1"))
	must(t, s.DeleteSession(ctx, "s1"))
	_, err = s.PlayerBySession(ctx, "s1")
	wantCode(t, err, store.ENOTFOUND, "a deleted session")
}
