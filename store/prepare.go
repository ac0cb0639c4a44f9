package store

import (
	"encoding/json"
	"time"
)

// What every Store checks of what it is given, and the defaults it fills
// in, written once for every backend: each Prepare method returns the value
// as it is to be stored, or an EINVALID error, with now the store's clock.

// Prepare checks a new account and its first passkey and fills in their
// creation times and the passkey's player.
func (a Account) Prepare(first Passkey, now time.Time) (Account, Passkey, error) {
	if a.PlayerID == "" || a.Name == "" || a.RecoveryHash == "" || first.ID == "" || !json.Valid(first.Credential) {
		return a, first, Errorf(EINVALID, "an account needs a player, a name, a recovery code hash and a passkey")
	}
	if a.Created.IsZero() {
		a.Created = now
	}
	if first.Created.IsZero() {
		first.Created = a.Created
	}
	first.PlayerID = a.PlayerID
	return a, first, nil
}

// Prepare checks a passkey to add and fills in its creation time.
func (p Passkey) Prepare(now time.Time) (Passkey, error) {
	if p.ID == "" || !json.Valid(p.Credential) {
		return p, Errorf(EINVALID, "a passkey needs an ID and its credential as JSON")
	}
	if p.Created.IsZero() {
		p.Created = now
	}
	return p, nil
}

// Prepare checks a chat line and fills in its time.
func (l ChatLine) Prepare(now time.Time) (ChatLine, error) {
	if l.TableID == "" || l.Text == "" {
		return l, Errorf(EINVALID, "a chat line needs a table and a text")
	}
	if l.At.IsZero() {
		l.At = now
	}
	return l, nil
}

// Prepare checks a new tournament and fills in its creation time, status
// and empty state.
func (t Tournament) Prepare(now time.Time) (Tournament, error) {
	if t.ID == "" || t.Format == "" || !json.Valid(t.Rules) {
		return t, Errorf(EINVALID, "a tournament needs an ID, a format and rules as JSON")
	}
	if t.Created.IsZero() {
		t.Created = now
	}
	if t.Status == "" {
		t.Status = TournamentOpen
	}
	if len(t.State) == 0 {
		t.State = json.RawMessage("{}")
	}
	return t, nil
}
