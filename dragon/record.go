package dragon

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
)

// RecordFormat names the JSON format of a Record. Version 2 came with the
// army battle, version 3 with card timing; ParseRecord still reads version
// 1 (ClassicFormat), whose games were all played with the classic battle,
// no seat bonus and own-turn cards, and version 2 (OwnTurnFormat), played
// with own-turn cards.
const RecordFormat = "farkle-dragon-record/3"

// ClassicFormat is the format of records written before the army battle.
const ClassicFormat = "farkle-dragon-record/1"

// OwnTurnFormat is the format of records written before card timing
// (active cards only on their owner's turn, no hiring).
const OwnTurnFormat = "farkle-dragon-record/2"

// IsRecordFormat reports whether format names a Dragon Farkle record this
// version reads (RecordFormat, OwnTurnFormat or ClassicFormat).
func IsRecordFormat(format string) bool {
	return format == RecordFormat || format == OwnTurnFormat || format == ClassicFormat
}

// ErrRecord is wrapped by every error of ParseRecord and Record.Replay.
var ErrRecord = errors.New("dragon: bad record")

// Record is a whole Dragon Farkle game as a front end saves it: the rules,
// the card set (when it is not the default), the players, the seed of the
// game's default source and every action in order. Game.Replay rebuilds
// every state and event from it. The seed is stored in the clear: a record
// is no commitment to fair dice for a game still in progress.
type Record struct {
	Format  string   `json:"format"`
	Rules   Rules    `json:"rules"`
	Cards   string   `json:"cards,omitempty"` // the card file (TOML) when not DefaultCards
	Players []string `json:"players"`
	// Levels holds each seat's bot level ("" for a person); informative.
	Levels  []string `json:"levels,omitempty"`
	Seed    string   `json:"seed"` // 64 hex digits
	Actions []Action `json:"actions"`
	// Winners and Slain copy the outcome once the game is over, so that a
	// reader need not replay; Replay checks them.
	Winners []int `json:"winners,omitempty"`
	Slain   bool  `json:"slain,omitempty"`
}

// NewRecord returns the record of a new game of g for players with seed
// (no actions yet).
func NewRecord(g *Game, players []string, seed [32]byte) *Record {
	rec := &Record{Format: RecordFormat, Rules: g.Rules(), Players: append([]string(nil), players...),
		Seed: hex.EncodeToString(seed[:]), Actions: []Action{}}
	if !bytes.Equal(g.Cards().TOML(), DefaultCards().TOML()) {
		rec.Cards = string(g.Cards().TOML())
	}
	return rec
}

// SeedBytes returns the record's seed.
func (rec *Record) SeedBytes() ([32]byte, error) {
	var seed [32]byte
	b, err := hex.DecodeString(rec.Seed)
	if err != nil || len(b) != 32 {
		return seed, fmt.Errorf("%w: seed %q is not 64 hex digits", ErrRecord, rec.Seed)
	}
	copy(seed[:], b)
	return seed, nil
}

// Game returns the Game the record was played with (its rules and cards).
func (rec *Record) Game() (*Game, error) {
	cards := DefaultCards()
	if rec.Cards != "" {
		var err error
		if cards, err = ParseCards([]byte(rec.Cards)); err != nil {
			return nil, fmt.Errorf("%w: cards: %w", ErrRecord, err)
		}
	}
	g, err := NewGame(rec.Rules, cards)
	if err != nil {
		return nil, fmt.Errorf("%w: rules: %w", ErrRecord, err)
	}
	return g, nil
}

// Replay rebuilds the game: the Game, the final state and every event.
// It fails, wrapping ErrRecord, when an action is not legal or when the
// recorded outcome differs from the replayed one.
func (rec *Record) Replay() (*Game, State, []Event, error) {
	g, err := rec.Game()
	if err != nil {
		return nil, State{}, nil, err
	}
	seed, err := rec.SeedBytes()
	if err != nil {
		return nil, State{}, nil, err
	}
	s, evs, err := g.Replay(rec.Players, seed, rec.Actions)
	if err != nil {
		return nil, s, evs, fmt.Errorf("%w: %w", ErrRecord, err)
	}
	if rec.Winners != nil || rec.Slain {
		if fmt.Sprint(rec.Winners) != fmt.Sprint(s.Winners) || rec.Slain != s.Slain {
			return nil, s, evs, fmt.Errorf("%w: the record says winners %v (slain %v), the replay gives %v (slain %v)", ErrRecord, rec.Winners, rec.Slain, s.Winners, s.Slain)
		}
	}
	return g, s, evs, nil
}

// Marshal returns the record as indented JSON.
func (rec *Record) Marshal() ([]byte, error) {
	return json.MarshalIndent(rec, "", "  ")
}

// ParseRecord reads a record written by Marshal. Unknown fields, another
// format and invalid rules are errors wrapping ErrRecord; the actions are
// checked only by Replay.
func ParseRecord(data []byte) (*Record, error) {
	var raw struct {
		Record
		Rules json.RawMessage `json:"rules"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRecord, err)
	}
	if !IsRecordFormat(raw.Format) {
		return nil, fmt.Errorf("%w: format %q (this version reads %q, %q and %q)", ErrRecord, raw.Format, RecordFormat, OwnTurnFormat, ClassicFormat)
	}
	rec := raw.Record
	r, err := ParseRulesJSON(raw.Rules)
	if err != nil {
		return nil, fmt.Errorf("%w: rules: %w", ErrRecord, err)
	}
	if rec.Format == ClassicFormat {
		// Written before the army battle: its rules have no battle fields,
		// and the game was played with the classic battle.
		r.Battle, r.BattleWave, r.BattleFire, r.SeatBonus = BattleClassic, 0, 0, 0
	}
	if rec.Format == ClassicFormat || rec.Format == OwnTurnFormat {
		// Written before card timing: active cards on their owner's turn
		// only, brawls in one action, no hiring.
		r.OwnTurnCards()
		rec.Format = RecordFormat
	}
	rec.Rules = r
	if _, err := rec.SeedBytes(); err != nil {
		return nil, err
	}
	return &rec, nil
}
