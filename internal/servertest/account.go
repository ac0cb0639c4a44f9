package servertest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"

	"github.com/farkle/farkle/store"
)

// MakeAccount makes p an account named name, straight in the store.
func MakeAccount(t testing.TB, st store.Store, p *Player, name string) {
	t.Helper()
	key := store.Passkey{ID: "key-" + p.ID, Credential: []byte(`{}`)}
	sum := sha256.Sum256([]byte(p.Token)) // the guest's token goes on as the account's session
	ses := store.Session{TokenHash: hex.EncodeToString(sum[:])}
	if err := st.CreateAccount(context.Background(), store.Account{PlayerID: p.ID, Name: name, RecoveryHash: "x"}, key, ses); err != nil {
		t.Fatal(err)
	}
}

// MakeModerator makes the player an account of the name and a moderator,
// as farkle admin would; its guest token goes on as the account's session.
func MakeModerator(t testing.TB, ts *Server, p *Player, name string) {
	t.Helper()
	ctx := context.Background()
	sum := sha256.Sum256([]byte(p.Token))
	if err := ts.Store.CreateAccount(ctx, store.Account{PlayerID: p.ID, Name: name, RecoveryHash: "x"}, store.Passkey{ID: "key-" + p.ID, Credential: []byte(`{}`)},
		store.Session{TokenHash: hex.EncodeToString(sum[:])}); err != nil {
		t.Fatal(err)
	}
	if err := ts.Store.AddModerator(ctx, p.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
}

func SHA(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// AccountSession gives the account a session of the token on a device.
func AccountSession(t *testing.T, ts *Server, playerID, token, device string) {
	t.Helper()
	if err := ts.DB.CreateSession(context.Background(), store.Session{TokenHash: SHA(token), PlayerID: playerID, Device: device}, 0); err != nil {
		t.Fatal(err)
	}
}
