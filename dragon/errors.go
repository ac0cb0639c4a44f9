package dragon

import (
	"errors"
	"strings"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/lang"
)

// Sentinel errors; every error of the package wraps one of them.
var (
	ErrInvalid   = errors.New("dragon: invalid rules")
	ErrCards     = errors.New("dragon: bad card file")
	ErrIllegal   = errors.New("dragon: illegal action")
	ErrBadAction = errors.New("dragon: bad action")
	ErrGameOver  = errors.New("dragon: the game is over")
	ErrPlayers   = errors.New("dragon: bad players")
	ErrNotTurn   = errors.New("dragon: not your turn")
)

// Refusal is why the game refuses an action or a table, said in any
// language: the sentinel it is (ErrIllegal, ErrBadAction, ErrGameOver,
// ErrNotTurn, ErrPlayers) and a text of the catalogue (a dragon.err.* key)
// with its values. Error is the English after the sentinel's text; Say
// says it in a player's language, so the front ends need not parse
// English.
type Refusal struct {
	Is   error
	Key  string
	Args []any // pairs of a name and a value, as lang.Catalogue.Msg takes them
}

func refuse(is error, key string, kv ...any) *Refusal {
	return &Refusal{Is: is, Key: key, Args: kv}
}

// Error is the English text, after the sentinel's: "dragon: illegal
// action: hire: one hire a turn".
func (r *Refusal) Error() string { return r.Is.Error() + ": " + r.Say(nil) }

// Unwrap returns the sentinel the refusal is.
func (r *Refusal) Unwrap() error { return r.Is }

// Say is the refusal in the language of c (nil: English), without the
// sentinel's text; its values said in words (lang.Said) are said in that
// language too.
func (r *Refusal) Say(c *lang.Catalogue) string {
	if c == nil {
		c = lang.Get(lang.Default)
	}
	return c.Msg(r.Key, r.Args...)
}

// keepWhy is the dice package's refusal of a keep that does not score,
// said in the refusal's language.
type keepWhy struct{ e *dice.KeepError }

func (k keepWhy) In(c *lang.Catalogue) string { return k.e.Say(c) }

// said is a fixed text of the catalogue.
type said string

func (s said) In(c *lang.Catalogue) string { return c.Msg(string(s)) }

// cardWords is a card named as the language names it.
type cardWords struct{ id, name string }

func (w cardWords) In(c *lang.Catalogue) string { return CardName(c, w.id, w.name) }

// momentList are moments said as a choice: "while recruiting or in a
// Brawl".
type momentList []Moment

func (ms momentList) In(c *lang.Catalogue) string {
	w := make([]string, len(ms))
	for i, m := range ms {
		w[i] = c.Msg("dragon.err.moment." + string(m))
	}
	return strings.Join(w, c.Msg("dragon.err.or"))
}

// phaseWords says where a turn in a phase stands: "between throws".
type phaseWords Phase

func (p phaseWords) In(c *lang.Catalogue) string {
	return c.Msg("dragon.err.phase." + Phase(p).String())
}

// kindList names the kinds of action allowed now: "recruit, brawl"
// (their names are the line mode's commands), or "nothing".
type kindList []ActionKind

func (ks kindList) In(c *lang.Catalogue) string {
	if len(ks) == 0 {
		return c.Msg("dragon.err.nothing")
	}
	w := make([]string, len(ks))
	for i, k := range ks {
		w[i] = k.String()
	}
	return strings.Join(w, ", ")
}
