package server

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/localplay"
	"github.com/farkle/farkle/store"
)

// Local games: a game the page played by itself (localplay, in the
// browser's WebAssembly) is kept in the player's history once it is over:
// POST /api/local-games with its record and the player's seat. The server
// trusts nothing of it: the record must verify with the real engine (every
// throw the seed's, every action legal, the outcome the replay's), its
// seats must be people or bots of a local game's levels, and it is stored
// as a finished, unrated table marked local, in nobody's stats. Its ID is
// made from the seed's commitment, so sending it again (a retry after a
// lost answer) keeps it once.

// localGameReq is the body of POST /api/local-games.
type localGameReq struct {
	Record json.RawMessage `json:"record"`
	Seat   int             `json:"seat"` // the seat of the player sending it: a person's
}

// localGameID is the table ID of the local game committed to commitment:
// 12 URL-safe characters, as a table's.
func localGameID(commitment string) string {
	sum := sha256.Sum256([]byte("local-game:" + commitment))
	return base64.RawURLEncoding.EncodeToString(sum[:9])
}

func (s *Server) handleLocalGame(w http.ResponseWriter, r *http.Request) {
	p, err := s.playerOf(r)
	if store.Code(err) == store.ENOTFOUND {
		writeJSON(w, http.StatusUnauthorized, apiError{Error: "keeping a local game needs a player: choose a name first (POST /api/players)", Code: codeNoPlayer})
		return
	}
	if err != nil {
		s.httpError(w, err)
		return
	}
	max := int64(s.opt.MaxLocalGameBytes)
	if max < 1<<10 {
		max = 1 << 10
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, max+1))
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			s.httpError(w, badRequest("the body came too slowly: it must arrive within the read timeout"))
			return
		}
		s.httpError(w, badRequest("the body could not be read"))
		return
	}
	if int64(len(data)) > max {
		s.httpError(w, fieldErrorf("record", "the body is longer than %d bytes (max-local-game-bytes)", max))
		return
	}
	var req localGameReq
	if err := decodeStrict(data, &req); err != nil {
		s.httpError(w, badRequest("bad JSON: %v", err))
		return
	}
	tb, rec, err := s.localTable(p, req)
	if err != nil {
		s.httpError(w, err)
		return
	}
	s.createMu.Lock()
	defer s.createMu.Unlock()
	if have, err := s.store.Table(r.Context(), tb.ID); err == nil {
		if !have.Local || have.Creator != p.ID {
			s.httpError(w, store.Errorf(store.ECONFLICT, "this game is already kept, by another player"))
			return
		}
		writeJSON(w, http.StatusOK, viewOf(have)) // sent again: kept once
		return
	}
	if max := s.opt.MaxLocalGames; max > 0 {
		n, err := s.store.CountTables(r.Context(), store.TableFilter{Creator: p.ID, Local: true})
		if err != nil {
			s.httpError(w, err)
			return
		}
		if n >= max {
			writeQuotaError(w, &quotaError{http.StatusTooManyRequests, codeQuota,
				fmt.Sprintf("you have kept %d local games, the most one player may keep (max-local-games %d)", n, max)})
			return
		}
	}
	imp, ok := s.store.(store.Importer)
	if !ok {
		writeJSON(w, http.StatusServiceUnavailable, apiError{Error: "this server's store cannot keep local games", Code: "unavailable"})
		return
	}
	recJSON, err := rec.Marshal()
	if err != nil {
		s.httpError(w, err)
		return
	}
	if err := imp.ImportTable(r.Context(), store.TableData{Table: tb, Actions: rec.Actions, Record: recJSON}); err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, viewOf(tb))
}

// localTable checks the upload req of player p and returns the table that
// keeps it, with its record: a 400 naming the field at fault otherwise.
func (s *Server) localTable(p store.Player, req localGameReq) (store.Table, *game.Record, error) {
	if len(req.Record) == 0 {
		return store.Table{}, nil, fieldErrorf("record", "missing: the game's record (farkle-record/2)")
	}
	rec, err := game.ParseRecord(req.Record)
	if err != nil {
		return store.Table{}, nil, fieldErrorf("record", "%s", strings.TrimPrefix(err.Error(), "game: "))
	}
	if rec.Kind != game.Farkle {
		return store.Table{}, nil, fieldErrorf("record", "a local game is of the ordinary game, not %s", rec.Kind)
	}
	if rec.Seed == "" {
		return store.Table{}, nil, fieldErrorf("record", "the game is not over: its seed is not revealed")
	}
	v, err := rec.Variant()
	if err != nil {
		return store.Table{}, nil, fieldErrorf("record", "%s", strings.TrimPrefix(err.Error(), "game: "))
	}
	mt, most := v.Scoring().Game.MaxTurns, s.opt.MaxTurns // the ordinary game's rules
	if most <= 0 {
		most = localplay.MaxTurns
	}
	if mt < 1 || mt > most {
		return store.Table{}, nil, fieldErrorf("rules.game.max_turns", "a local game's rules cap it at 1 to %d rounds (got %d)", most, mt)
	}
	g, _, err := game.Verify(rec)
	if err != nil {
		return store.Table{}, nil, fieldErrorf("record", "the record does not verify: %s", strings.TrimPrefix(err.Error(), "game: "))
	}
	if !g.Over() {
		return store.Table{}, nil, fieldErrorf("record", "the game is not over")
	}
	levels, err := localplay.BotLevels(rec)
	if err != nil {
		return store.Table{}, nil, fieldErrorf("record", "%s", strings.TrimPrefix(err.Error(), "localplay: bad setup: "))
	}
	if req.Seat < 0 || req.Seat >= len(rec.Players) || levels[req.Seat] != "" {
		return store.Table{}, nil, fieldErrorf("seat", "seat %d is not a person's seat of the game", req.Seat)
	}
	seats := make([]store.Seat, len(rec.Players))
	for i, name := range rec.Players {
		if levels[i] != "" {
			seats[i] = store.Seat{Name: botName(levels[i]), Bot: levels[i]}
			continue
		}
		clean, err := CleanName(name)
		if err != nil || clean != name {
			return store.Table{}, nil, fieldErrorf("record.players", "player %d: %q is not a name a player may have", i+1, name)
		}
		seats[i] = store.Seat{Name: name}
	}
	seats[req.Seat].PlayerID = p.ID
	seed, _ := dice.ParseSeed(rec.Seed) // Verify read it
	now := s.opt.Now()
	return store.Table{ID: localGameID(rec.Commitment), Kind: game.Farkle, Rules: rec.Rules, Seats: seats, Seed: seed,
		Status: store.Over, Actions: len(rec.Actions), Created: now, Updated: now, Winners: g.Winners(), Scores: g.Scores(),
		Creator: p.ID, Local: true}, rec, nil
}
