package server

import (
	"context"
	"fmt"

	"github.com/farkle/farkle/store"
)

// PlayerForKey returns the player an SSH public key signs in as, by the
// key's SHA256 fingerprint: a key is an account. An unknown key becomes a
// new guest called name (cleaned as CleanName does, "guest" if that fails
// or the name is or looks like an account's) whose token is token: the
// SSH front end derives the token from the key and a secret of its own,
// so that its sessions reach the REST and WebSocket routes as that
// player. A known key's player must have been made with that token;
// otherwise (the front end's secret changed) it is an error. The key
// proves the player as a passkey does: when the session of its token has
// ended (signed out, or out everywhere), the key starts it again.
func (s *Server) PlayerForKey(ctx context.Context, fingerprint, name, token string) (store.Player, error) {
	p, err := s.store.PlayerByKey(ctx, fingerprint)
	if err == nil {
		if p.TokenHash != "" && p.TokenHash != hashToken(token) {
			return store.Player{}, fmt.Errorf("server: the player of SSH key %s has another token (was the SSH host key replaced?)", fingerprint)
		}
		return p, s.keySession(ctx, p, token)
	}
	if store.Code(err) != store.ENOTFOUND {
		return store.Player{}, err
	}
	if name, err = CleanName(name); err != nil || s.guestNameFree(ctx, name) != nil {
		name = "guest"
	}
	p = store.Player{ID: randomID(9), Name: name, TokenHash: hashToken(token), Created: s.opt.Now()}
	if err := s.store.CreatePlayer(ctx, p); err != nil {
		if store.Code(err) != store.ECONFLICT {
			return store.Player{}, err
		}
		// The token's player exists: another session of the same new key
		// made it first, or one stopped before tying the key to it.
		if p, err = s.store.PlayerByToken(ctx, hashToken(token)); err != nil {
			return store.Player{}, err
		}
	}
	if err := s.store.AddKey(ctx, fingerprint, p.ID); err != nil && store.Code(err) != store.ECONFLICT {
		return store.Player{}, err
	}
	return p, nil
}

// keySession makes sure the token of an SSH key's player has a session:
// it starts one again if it had ended.
func (s *Server) keySession(ctx context.Context, p store.Player, token string) error {
	_, owner, err := s.store.SessionByToken(ctx, hashToken(token))
	switch {
	case err == nil && owner.ID == p.ID:
		return nil
	case err == nil:
		return fmt.Errorf("server: the token of SSH key's player %s is another player's", p.ID)
	case store.Code(err) != store.ENOTFOUND:
		return err
	}
	err = s.store.CreateSession(ctx, store.Session{TokenHash: hashToken(token), PlayerID: p.ID, Created: s.opt.Now(), Device: "SSH"}, max(s.opt.MaxSessions, 0))
	if store.Code(err) == store.ECONFLICT { // another connection of the key started it first
		return nil
	}
	return err
}
