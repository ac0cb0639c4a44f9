package game

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/record"
)

// Format is the format tag of the records of every variant.
const Format = "farkle-record/2"

// ErrBadRecord is wrapped by the errors of ParseRecord; ErrDiscrepancy by
// those of Verify and Replay that find a record inconsistent.
var (
	ErrBadRecord   = errors.New("game: bad record")
	ErrDiscrepancy = errors.New("game: discrepancy")
)

// Record is a whole game of any variant: its kind and rules, the players,
// the commitment to the secret seed (revealed when the game ends), every
// action as the variant writes it (Variant.Entry) and facts that do not
// affect play. Verify checks it completely; Replay rebuilds every step.
type Record struct {
	Format     string            `json:"format"`
	Kind       Kind              `json:"kind"`
	Rules      json.RawMessage   `json:"rules"`
	Players    []string          `json:"players"`
	Commitment string            `json:"commitment"`     // hex SHA-256 of the seed
	Seed       string            `json:"seed,omitempty"` // hex; empty until revealed
	Actions    []json.RawMessage `json:"actions"`
	Meta       record.Meta       `json:"meta,omitzero"`
}

// NewRecord starts the record of a game of v for players, committed to
// seed.
func NewRecord(v Variant, players []string, seed dice.Seed) *Record {
	return &Record{Format: Format, Kind: v.Kind(), Rules: v.Rules(),
		Players: append([]string(nil), players...), Commitment: seed.Commitment(), Actions: []json.RawMessage{}}
}

// Marshal returns the record as indented JSON.
func (rec *Record) Marshal() ([]byte, error) { return json.MarshalIndent(rec, "", "  ") }

// Variant opens the record's variant.
func (rec *Record) Variant() (Variant, error) {
	v, err := Open(rec.Kind, rec.Rules)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadRecord, err)
	}
	return v, nil
}

// ParseRecord reads a record of any kind, refusing unknown fields, unknown
// kinds, invalid rules and malformed seeds; it does not replay the game
// (Verify and Replay do). It also reads the formats written before
// Format: ordinary records (farkle-record/1) and Dragon Farkle records
// (farkle-dragon-record/1 and /2, whose seed was never secret).
func ParseRecord(data []byte) (*Record, error) {
	var head struct {
		Format string `json:"format"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadRecord, err)
	}
	if head.Format != Format {
		for _, k := range KindNames() {
			if read := Kinds[k].ReadOld; read != nil {
				if rec, ok, err := read(head.Format, data); ok {
					return rec, err
				}
			}
		}
		return nil, fmt.Errorf("%w: format %q (this program reads %q)", ErrBadRecord, head.Format, Format)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var rec Record
	if err := dec.Decode(&rec); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadRecord, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: data after the record", ErrBadRecord)
	}
	v, err := rec.Variant()
	if err != nil {
		return nil, err
	}
	rec.Rules = v.Rules()
	if rec.Seed != "" {
		if _, err := dice.ParseSeed(rec.Seed); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrBadRecord, err)
		}
	}
	if rec.Actions == nil {
		rec.Actions = []json.RawMessage{}
	}
	for i, raw := range rec.Actions {
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil {
			return nil, fmt.Errorf("%w: action %d: %v", ErrBadRecord, i+1, err)
		}
		rec.Actions[i] = b.Bytes()
	}
	return &rec, nil
}

// FromOrdinary returns the record of an ordinary game in this format.
func FromOrdinary(old *record.Record) (*Record, error) {
	v, err := NewFarkle(old.Rules)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadRecord, err)
	}
	rec := &Record{Format: Format, Kind: Farkle, Rules: v.Rules(), Players: old.Players,
		Commitment: old.Commitment, Seed: old.Seed, Meta: old.Meta, Actions: make([]json.RawMessage, len(old.Actions))}
	for i, e := range old.Actions {
		if rec.Actions[i], err = json.Marshal(e); err != nil {
			return nil, err
		}
	}
	return rec, nil
}

// Ordinary returns the record of an ordinary game as a record.Record, with
// each entry's recorded dice, for what reads those (record.Replay without
// the seed, advise.Analyze). It fails for another kind.
func (rec *Record) Ordinary() (*record.Record, error) {
	v, err := rec.Variant()
	if err != nil {
		return nil, err
	}
	fv, ok := v.(*FarkleVariant)
	if !ok {
		return nil, fmt.Errorf("%w: a record of %s, not of ordinary Farkle", ErrBadRecord, rec.Kind)
	}
	out := &record.Record{Format: record.Format, Rules: fv.RuleSet(), Players: rec.Players,
		Commitment: rec.Commitment, Seed: rec.Seed, Meta: rec.Meta, Actions: make([]record.Entry, len(rec.Actions))}
	for i, raw := range rec.Actions {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&out.Actions[i]); err != nil {
			return nil, fmt.Errorf("%w: action %d: %v", ErrBadRecord, i+1, err)
		}
	}
	return out, nil
}

// readOldFarkle reads an ordinary record of the format before Format
// (farkle-record/1).
func readOldFarkle(format string, data []byte) (*Record, bool, error) {
	if format != record.Format {
		return nil, false, nil
	}
	old, err := record.Parse(data)
	if err != nil {
		return nil, true, fmt.Errorf("%w: %w", ErrBadRecord, err)
	}
	rec, err := FromOrdinary(old)
	return rec, true, err
}

// Step is one replayed action: the game before it, the seat that acted,
// the action and the events it caused.
type Step struct {
	Before Game
	Seat   int
	Action Action
	Events []Event
}

// Verify checks the record completely: the revealed seed matches the
// commitment, replaying every action from the seed's dice is legal and
// gives exactly the recorded entries (the dice each throw recorded), and
// the recorded outcome, if any, is the replay's. It returns the final game
// and every step, or an error wrapping ErrDiscrepancy that names the first
// action at fault.
func Verify(rec *Record) (Game, []Step, error) {
	if rec.Seed == "" {
		return nil, nil, fmt.Errorf("%w: the seed is not revealed, so the dice cannot be checked", ErrDiscrepancy)
	}
	seed, err := dice.ParseSeed(rec.Seed)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrBadRecord, err)
	}
	return Replay(rec, seed)
}

// Steps replays rec from the dice its entries recorded where its variant
// records them (the ordinary game: then nothing is checked against the
// seed, which may be unrevealed; see Verify), else from its revealed seed
// as Verify does. It returns the final game and every step, or the error
// at the first action at fault with the steps before it (and the game
// there, when there is one).
func Steps(rec *Record) (Game, []Step, error) {
	v, err := rec.Variant()
	if err != nil {
		return nil, nil, err
	}
	if r, ok := v.(recordedReplayer); ok {
		return r.replayRecorded(rec)
	}
	return Verify(rec)
}

// NeedsSeed reports whether rec replays only from its revealed seed: its
// variant's entries do not record the dice they threw (Dragon Farkle's),
// so Steps needs the seed.
func (rec *Record) NeedsSeed() bool {
	v, err := rec.Variant()
	if err != nil {
		return true
	}
	_, ok := v.(recordedReplayer)
	return !ok
}

// recordedReplayer is a variant whose entries record the dice they threw,
// so that its records replay without the seed.
type recordedReplayer interface {
	replayRecorded(rec *Record) (Game, []Step, error)
}

// Replay rebuilds the game of the record from seed (which must match the
// commitment), checking every action as Verify does. Front ends use it to
// resume an unfinished game whose seed they kept.
func Replay(rec *Record, seed dice.Seed) (Game, []Step, error) {
	g, steps, _, _, err := replay(rec, seed)
	return g, steps, err
}

// replay is Replay that also returns the source, ready for the next draw,
// and the events of the start.
func replay(rec *Record, seed dice.Seed) (Game, []Step, dice.Source, []Event, error) {
	if got := seed.Commitment(); got != rec.Commitment {
		return nil, nil, nil, nil, fmt.Errorf("%w: the seed's SHA-256 is %s but the record's commitment is %s", ErrDiscrepancy, got, rec.Commitment)
	}
	v, err := rec.Variant()
	if err != nil {
		return nil, nil, nil, nil, err
	}
	src := dice.NewSource(seed)
	g, started, err := v.Start(rec.Players, src)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("%w: %w", ErrDiscrepancy, err)
	}
	steps := make([]Step, 0, len(rec.Actions))
	for i, raw := range rec.Actions {
		seat, a, err := EntryAction(v, g, raw)
		if err != nil {
			return g, steps, nil, nil, fmt.Errorf("%w: action %d: %w", ErrDiscrepancy, i+1, err)
		}
		next, evs, err := g.Apply(seat, a, src)
		if err != nil {
			return g, steps, nil, nil, fmt.Errorf("%w: action %d (%s by %s): %w", ErrDiscrepancy, i+1, a, name(rec.Players, seat), err)
		}
		if want := v.Entry(seat, a, evs); !SameEntry(want, raw) {
			return g, steps, nil, nil, fmt.Errorf("%w: action %d (%s by %s): the seed gives %s but the record says %s", ErrDiscrepancy, i+1, a, name(rec.Players, seat), want, compact(raw))
		}
		steps = append(steps, Step{Before: g, Seat: seat, Action: a, Events: evs})
		g = next
	}
	if m := rec.Meta; m.Winners != nil && fmt.Sprint(m.Winners) != fmt.Sprint(g.Winners()) {
		return g, steps, nil, nil, fmt.Errorf("%w: the record says the winners are seats %v, the replay gives %v", ErrDiscrepancy, m.Winners, g.Winners())
	}
	if m := rec.Meta; m.Scores != nil && fmt.Sprint(m.Scores) != fmt.Sprint(g.Scores()) {
		return g, steps, nil, nil, fmt.Errorf("%w: the record says the scores are %v, the replay gives %v", ErrDiscrepancy, m.Scores, g.Scores())
	}
	return g, steps, src, started, nil
}

// seated is an action that names its own seat (engine.Action does; a
// Dragon Farkle action is always that of the seat the game waits for,
// ToAct: the player whose turn it is, or a brawl's defender).
type seated interface{ Seat() int }

// EntryAction reads raw, an action's entry in a record of variant v, as
// the next action of g: the action and the seat that takes it (the seat
// the action names, else the one g waits for).
func EntryAction(v Variant, g Game, raw []byte) (seat int, a Action, err error) {
	a, err = v.ParseAction(raw)
	if err != nil {
		return 0, nil, err
	}
	seat = g.ToAct()
	if s, ok := a.(seated); ok {
		seat = s.Seat()
	}
	return seat, a, nil
}

// SameEntry says whether two record entries are the same JSON value: a
// store or a file may keep an entry in another spacing or key order.
func SameEntry(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

func compact(raw []byte) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

func name(players []string, seat int) string {
	if seat >= 0 && seat < len(players) {
		return players[seat]
	}
	return fmt.Sprintf("seat %d", seat)
}
