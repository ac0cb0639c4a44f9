package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/rules"
)

// Format is the format tag of records written by this package.
const Format = "farkle-record/1"

// ErrBadRecord is wrapped by every error of Parse.
var ErrBadRecord = errors.New("record: bad record")

// Record is a whole game.
type Record struct {
	Format     string      `json:"format"`
	Rules      rules.Rules `json:"rules"`
	Players    []string    `json:"players"`
	Commitment string      `json:"commitment"`     // hex SHA-256 of the seed
	Seed       string      `json:"seed,omitempty"` // hex; empty until revealed
	Actions    []Entry     `json:"actions"`
	Meta       Meta        `json:"meta,omitzero"`
}

// Meta is information about a game that does not affect play.
type Meta struct {
	Started string            `json:"started,omitempty"` // RFC 3339, set by front ends
	Ended   string            `json:"ended,omitempty"`
	Winners []int             `json:"winners,omitempty"`
	Scores  []int             `json:"scores,omitempty"`
	Extra   map[string]string `json:"extra,omitempty"` // e.g. bot levels by seat
}

// SetLevel notes in Extra that seat is played by a bot of level.
func (m *Meta) SetLevel(seat int, level string) {
	if m.Extra == nil {
		m.Extra = map[string]string{}
	}
	m.Extra[levelKey(seat)] = level
}

// Level returns the bot level of seat noted by SetLevel, "" for a person.
func (m Meta) Level(seat int) string { return m.Extra[levelKey(seat)] }

func levelKey(seat int) string { return fmt.Sprintf("bot.%d", seat) }

// SetLostOnTime notes in Extra that seat lost on time: its resignation
// was the turn clock's (its timeouts in a row ran out), not its own.
func (m *Meta) SetLostOnTime(seat int) {
	if m.Extra == nil {
		m.Extra = map[string]string{}
	}
	m.Extra[timeKey(seat)] = "lost"
}

// ClearLostOnTime takes back SetLostOnTime (a resignation that was not
// stored).
func (m *Meta) ClearLostOnTime(seat int) { delete(m.Extra, timeKey(seat)) }

// LostOnTime reports whether SetLostOnTime noted that seat lost on time.
func (m Meta) LostOnTime(seat int) bool { return m.Extra[timeKey(seat)] == "lost" }

func timeKey(seat int) string { return fmt.Sprintf("time.%d", seat) }

// Entry is one action and, for a throw or roll-off, the dice it threw.
type Entry struct {
	engine.Action
	Threw dice.Hand `json:"threw,omitempty"`
}

// New starts an empty record committed to seed. The seed itself is
// revealed (Reveal) when the game ends.
func New(r rules.Rules, players []string, seed dice.Seed) *Record {
	return &Record{
		Format:     Format,
		Rules:      r.Clone(),
		Players:    append([]string(nil), players...),
		Commitment: seed.Commitment(),
	}
}

// Reveal writes the seed into the record.
func (rec *Record) Reveal(seed dice.Seed) { rec.Seed = seed.Hex() }

// Add appends an applied action with the dice its events show thrown.
func (rec *Record) Add(a engine.Action, events []engine.Event) {
	e := Entry{Action: a}
	for _, ev := range events {
		if ev.Kind == engine.EvThrow || ev.Kind == engine.EvRollOff {
			e.Threw = ev.Dice
			break
		}
	}
	rec.Actions = append(rec.Actions, e)
}

// Marshal returns the record as indented JSON.
func (rec *Record) Marshal() ([]byte, error) {
	return json.MarshalIndent(rec, "", "  ")
}

// Parse reads a record, refusing unknown fields, another format, invalid
// rules and malformed seeds; it does not replay the game (see Replay).
func Parse(data []byte) (*Record, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var rec Record
	if err := dec.Decode(&rec); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadRecord, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: data after the record", ErrBadRecord)
	}
	if rec.Format != Format {
		return nil, fmt.Errorf("%w: format %q (this program reads %q)", ErrBadRecord, rec.Format, Format)
	}
	if rec.Rules.Scoring.Single == nil {
		rec.Rules.Scoring.Single = map[string]int{}
	}
	if err := rec.Rules.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadRecord, err)
	}
	if rec.Seed != "" {
		if _, err := parseSeed(rec.Seed); err != nil {
			return nil, err
		}
	}
	return &rec, nil
}

func parseSeed(hexSeed string) (dice.Seed, error) {
	if len(hexSeed) != 64 {
		return dice.Seed{}, fmt.Errorf("%w: seed must be 64 hex digits (got %d characters)", ErrBadRecord, len(hexSeed))
	}
	s := dice.SeedFrom(hexSeed)
	if s.Hex() != hexSeed {
		return dice.Seed{}, fmt.Errorf("%w: seed %q is not lower-case hex", ErrBadRecord, hexSeed)
	}
	return s, nil
}
