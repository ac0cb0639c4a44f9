package dragon

import (
	_ "embed"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// The default card set. The official Dragon Farkle card texts are not
// reproduced: these cards are the project's own.
//
//go:embed cards.toml
var defaultCardsTOML []byte

// DefaultCardsTOML returns the text of the default card file, a starting
// point for a user's own.
func DefaultCardsTOML() []byte { return slices.Clone(defaultCardsTOML) }

// Kind is the type of a card.
type Kind string

// The two decks.
const (
	Companion Kind = "companion"
	Item      Kind = "item"
)

// Primitive is one effect that cards are built from. The set is fixed in
// code; a card file combines them.
type Primitive string

// The primitives. Active ones are used by an explicit Use action on a throw
// of the owner, at the moments the effect's When names (a Companion once
// per turn, a Magic Item once, then it is discarded); passive ones apply
// while the card is held.
const (
	Rethrow        Primitive = "rethrow"         // active: re-throw one die of the throw
	TwoAsFive      Primitive = "two_as_five"     // active: one 2 of the throw becomes a 5
	IgnoreDragon   Primitive = "ignore_dragon"   // active, recruiting or brawl: a Dragon event face becomes Blank
	RerollFarkle   Primitive = "reroll_farkle"   // active, recruiting or brawl: after a farkle throw the same dice again
	MeldBonus      Primitive = "meld_bonus"      // passive, recruiting: +N soldiers per kept meld of kind Meld
	RallyDamage    Primitive = "rally_damage"    // passive, battle: a Rally deals N more damage
	ExtraItem      Primitive = "extra_item"      // passive: a Rally that draws an item draws N more
	BrawlGuard     Primitive = "brawl_guard"     // passive: a lost Brawl costs N fewer soldiers
	BrawlBonus     Primitive = "brawl_bonus"     // passive: a won Brawl brings N more soldiers
	BattleDiscount Primitive = "battle_discount" // passive, battle: each keep costs N fewer soldiers
	HoldItems      Primitive = "hold_items"      // passive: N more items may be held at the end of a turn
)

var primitives = map[Primitive]bool{ // primitive -> active
	Rethrow: true, TwoAsFive: true, IgnoreDragon: true, RerollFarkle: true,
	MeldBonus: false, RallyDamage: false, ExtraItem: false, BrawlGuard: false,
	BrawlBonus: false, BattleDiscount: false, HoldItems: false,
}

// Primitives returns the names of all primitives, sorted.
func Primitives() []Primitive {
	out := make([]Primitive, 0, len(primitives))
	for p := range primitives {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// Active reports whether p is used by an explicit action (rather than
// always applying while held).
func (p Primitive) Active() bool { return primitives[p] }

// Moment is where an active card may be used: on a throw of its owner
// while recruiting, in the Final Battle or in a Brawl (either side).
type Moment string

// The moments of an active effect's When.
const (
	AtRecruit Moment = "recruit"
	AtBattle  Moment = "battle"
	AtBrawl   Moment = "brawl"
)

// moments lists, for each active primitive, the moments where it can do
// something: a Dragon in the Final Battle wounds the dragon and a throw
// without scoring dice there is answered by the fire, so ignore_dragon and
// reroll_farkle have no battle moment.
var moments = map[Primitive][]Moment{
	Rethrow:      {AtRecruit, AtBattle, AtBrawl},
	TwoAsFive:    {AtRecruit, AtBattle, AtBrawl},
	IgnoreDragon: {AtRecruit, AtBrawl},
	RerollFarkle: {AtRecruit, AtBrawl},
}

// Moments returns the moments where an active effect may be used: its When,
// or every moment its primitive works when When is empty ("anytime, except
// as noted").
func (e Effect) Moments() []Moment {
	if len(e.When) > 0 {
		return e.When
	}
	return moments[e.Primitive]
}

// Meld kinds a meld_bonus can name. A keep's melds are those of the best
// split of the kept dice (dice.Table.Split).
var meldKinds = []string{"single", "kind", "three_pairs", "straight", "small_straight", "four_kind_pair", "two_triplets"}

// Effect is one primitive with its parameters.
type Effect struct {
	Primitive Primitive `toml:"primitive" json:"primitive"`
	N         int       `toml:"n,omitempty" json:"n,omitempty"`
	Meld      string    `toml:"meld,omitempty" json:"meld,omitempty"`
	// When lists the moments an active effect may be used (empty: every
	// moment its primitive works).
	When []Moment `toml:"when,omitempty" json:"when,omitempty"`
}

// Card is a Companion or a Magic Item: a name, a one-line text and the
// effects it is made of.
type Card struct {
	ID      string   `toml:"id" json:"id"`
	Name    string   `toml:"name" json:"name"`
	Text    string   `toml:"text" json:"text"`
	Kind    Kind     `toml:"-" json:"kind"`
	Effects []Effect `toml:"effects" json:"effects"`
}

// Active returns the card's active effect, if it has one.
func (c *Card) Active() (Effect, bool) {
	for _, e := range c.Effects {
		if e.Primitive.Active() {
			return e, true
		}
	}
	return Effect{}, false
}

// Sum returns the total N of the card's passive effects p (with meld m when
// p is MeldBonus).
func (c *Card) Sum(p Primitive, meld string) int {
	n := 0
	for _, e := range c.Effects {
		if e.Primitive == p && (p != MeldBonus || e.Meld == meld) {
			n += e.N
		}
	}
	return n
}

// Cards is a card set: the Companion deck and the Magic Item deck. It is
// immutable once parsed.
type Cards struct {
	Companions []Card `toml:"companion" json:"companions"`
	Items      []Card `toml:"item" json:"items"`
	byID       map[string]*Card
}

// Card returns the card with the given id, or nil.
func (cs *Cards) Card(id string) *Card { return cs.byID[id] }

// DefaultCards returns the project's own card set (cards.toml, embedded).
func DefaultCards() *Cards {
	cs, err := ParseCards(defaultCardsTOML)
	if err != nil {
		panic("dragon: the embedded cards.toml is invalid: " + err.Error())
	}
	return cs
}

// NoCards returns an empty card set: no Companions and no Magic Items are
// dealt and a Rally's item reward draws nothing. Useful for the pure game
// the battle odds assume.
func NoCards() *Cards { return &Cards{byID: map[string]*Card{}} }

var cardFields = []string{"id", "name", "text", "effects"}
var effectFields = []string{"primitive", "n", "meld", "when"}

// ParseCards reads a card file (TOML; see cards.toml for the format). Every
// problem is an error wrapping ErrCards that names the card and the field:
// unknown fields and primitives, missing names or texts, duplicate ids,
// missing or negative n, an unknown meld, more than one active primitive,
// a when on a passive primitive or naming a moment where it cannot work.
func ParseCards(data []byte) (*Cards, error) {
	var raw map[string]any
	if _, err := toml.Decode(string(data), &raw); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCards, err)
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k != "companion" && k != "item" {
			return nil, fmt.Errorf("%w: unknown table %q (allowed: [[companion]], [[item]])", ErrCards, k)
		}
	}
	cs := &Cards{byID: map[string]*Card{}}
	for _, kind := range []Kind{Companion, Item} {
		v, ok := raw[string(kind)]
		if !ok {
			continue
		}
		list, ok := tables(v)
		if !ok {
			return nil, fmt.Errorf("%w: %s must be an array of tables ([[%s]])", ErrCards, kind, kind)
		}
		for i, m := range list {
			c, err := parseCard(kind, i, m)
			if err != nil {
				return nil, err
			}
			if _, dup := cs.byID[c.ID]; dup {
				return nil, fmt.Errorf("%w: %s %d %q: id: duplicate id (ids must be unique across both decks)", ErrCards, kind, i+1, c.ID)
			}
			if kind == Companion {
				cs.Companions = append(cs.Companions, c)
			} else {
				cs.Items = append(cs.Items, c)
			}
			cs.byID[c.ID] = nil // placeholder; pointers set below once slices stop growing
		}
	}
	for i := range cs.Companions {
		cs.byID[cs.Companions[i].ID] = &cs.Companions[i]
	}
	for i := range cs.Items {
		cs.byID[cs.Items[i].ID] = &cs.Items[i]
	}
	return cs, nil
}

func parseCard(kind Kind, i int, m map[string]any) (Card, error) {
	c := Card{Kind: kind}
	where := fmt.Sprintf("%s %d", kind, i+1)
	if id, ok := m["id"].(string); ok {
		where = fmt.Sprintf("%s %d %q", kind, i+1, id)
	}
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("%w: %s: %s: %s", ErrCards, where, field, fmt.Sprintf(format, args...))
	}
	for _, k := range sortedKeys(m) {
		if !slices.Contains(cardFields, k) {
			return c, bad(k, "unknown field (fields: %s)", strings.Join(cardFields, ", "))
		}
	}
	for _, f := range []struct {
		name string
		dst  *string
	}{{"id", &c.ID}, {"name", &c.Name}, {"text", &c.Text}} {
		s, ok := m[f.name].(string)
		if !ok {
			if _, present := m[f.name]; present {
				return c, bad(f.name, "must be a string")
			}
			return c, bad(f.name, "missing")
		}
		s = strings.TrimSpace(s)
		if s == "" {
			return c, bad(f.name, "must not be empty")
		}
		if strings.ContainsAny(s, "\n\r") {
			return c, bad(f.name, "must be one line")
		}
		*f.dst = s
	}
	v, present := m["effects"]
	if !present {
		return c, bad("effects", "missing (a card needs at least one effect)")
	}
	effs, ok := tables(v)
	if !ok {
		return c, bad("effects", "must be a list of tables like [{ primitive = \"rethrow\" }]")
	}
	if len(effs) == 0 {
		return c, bad("effects", "a card needs at least one effect")
	}
	active := 0
	for j, em := range effs {
		e, err := parseEffect(em)
		if err != nil {
			return c, bad(fmt.Sprintf("effects[%d]", j), "%v", err)
		}
		if e.Primitive.Active() {
			active++
			if active > 1 {
				return c, bad(fmt.Sprintf("effects[%d]", j), "a card may have only one active primitive (%s, %s, %s, %s)", Rethrow, TwoAsFive, IgnoreDragon, RerollFarkle)
			}
		}
		c.Effects = append(c.Effects, e)
	}
	return c, nil
}

func parseEffect(m map[string]any) (Effect, error) {
	var e Effect
	for _, k := range sortedKeys(m) {
		if !slices.Contains(effectFields, k) {
			return e, fmt.Errorf("unknown field %q (fields: %s)", k, strings.Join(effectFields, ", "))
		}
	}
	p, ok := m["primitive"].(string)
	if !ok {
		return e, fmt.Errorf("primitive: missing or not a string")
	}
	e.Primitive = Primitive(p)
	active, known := primitives[e.Primitive]
	if !known {
		return e, fmt.Errorf("primitive: unknown primitive %q (primitives: %s)", p, joinPrims())
	}
	if v, present := m["n"]; present {
		n, ok := v.(int64)
		if !ok {
			return e, fmt.Errorf("n: must be an integer")
		}
		if active {
			return e, fmt.Errorf("n: not used by the active primitive %s", p)
		}
		if n < 1 || n > 100000 {
			return e, fmt.Errorf("n: must be 1 to 100000 (got %d)", n)
		}
		e.N = int(n)
	} else if !active {
		return e, fmt.Errorf("n: missing (%s needs n >= 1)", p)
	}
	if v, present := m["meld"]; present {
		s, ok := v.(string)
		if !ok {
			return e, fmt.Errorf("meld: must be a string")
		}
		if e.Primitive != MeldBonus {
			return e, fmt.Errorf("meld: only %s takes a meld", MeldBonus)
		}
		if !slices.Contains(meldKinds, s) {
			return e, fmt.Errorf("meld: unknown meld %q (melds: %s)", s, strings.Join(meldKinds, ", "))
		}
		e.Meld = s
	} else if e.Primitive == MeldBonus {
		return e, fmt.Errorf("meld: missing (melds: %s)", strings.Join(meldKinds, ", "))
	}
	if v, present := m["when"]; present {
		when, err := parseWhen(e.Primitive, v)
		if err != nil {
			return e, fmt.Errorf("when: %v", err)
		}
		e.When = when
	}
	return e, nil
}

// parseWhen reads the when list of an active effect: moments where its
// primitive works, at least one, none twice.
func parseWhen(p Primitive, v any) ([]Moment, error) {
	works := moments[p]
	names := make([]string, len(works))
	for i, m := range works {
		names[i] = string(m)
	}
	if !p.Active() {
		return nil, fmt.Errorf("only active primitives take a when (%s works while the card is held)", p)
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("must be a list of moments like [\"recruit\", \"brawl\"]")
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("must name at least one moment (%s works at: %s)", p, strings.Join(names, ", "))
	}
	var out []Moment
	for _, x := range list {
		s, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("moments must be strings (%s works at: %s)", p, strings.Join(names, ", "))
		}
		m := Moment(s)
		if !slices.Contains(works, m) {
			return nil, fmt.Errorf("%s cannot be used at %q (it works at: %s)", p, s, strings.Join(names, ", "))
		}
		if slices.Contains(out, m) {
			return nil, fmt.Errorf("%q is named twice", s)
		}
		out = append(out, m)
	}
	return out, nil
}

// tables returns v as a list of tables: TOML gives []map[string]any for
// [[x]] and []any for an inline array of inline tables.
func tables(v any) ([]map[string]any, bool) {
	switch x := v.(type) {
	case []map[string]any:
		return x, true
	case []any:
		out := make([]map[string]any, len(x))
		for i, e := range x {
			m, ok := e.(map[string]any)
			if !ok {
				return nil, false
			}
			out[i] = m
		}
		return out, true
	}
	return nil, false
}

func joinPrims() string {
	ps := Primitives()
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = string(p)
	}
	return strings.Join(s, ", ")
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TOML returns the card set as a card file that ParseCards reads back to
// an equal set.
func (cs *Cards) TOML() []byte {
	var b strings.Builder
	b.WriteString("# Dragon Farkle cards (the official card texts are not reproduced).\n")
	write := func(kind Kind, cards []Card) {
		for _, c := range cards {
			fmt.Fprintf(&b, "\n[[%s]]\nid = %s\nname = %s\ntext = %s\neffects = [", kind, quote(c.ID), quote(c.Name), quote(c.Text))
			for j, e := range c.Effects {
				if j > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "{ primitive = %s", quote(string(e.Primitive)))
				if e.N != 0 {
					fmt.Fprintf(&b, ", n = %d", e.N)
				}
				if e.Meld != "" {
					fmt.Fprintf(&b, ", meld = %s", quote(e.Meld))
				}
				if len(e.When) > 0 {
					ws := make([]string, len(e.When))
					for k, m := range e.When {
						ws[k] = quote(string(m))
					}
					fmt.Fprintf(&b, ", when = [%s]", strings.Join(ws, ", "))
				}
				b.WriteString(" }")
			}
			b.WriteString("]\n")
		}
	}
	write(Companion, cs.Companions)
	write(Item, cs.Items)
	return []byte(b.String())
}

// quote writes s as a TOML basic string.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
