package solved

import (
	"context"
	"errors"
	"math"
	"regexp"
	"strings"

	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/solve"
)

// Why is why a solver result is not available, as a key of the catalogues
// (package lang, keys "solved.why.*") and the values it names, so that
// each front end says it in its player's language: the terminal with In,
// the page with its own catalogue (the server sends a Why as JSON).
type Why struct {
	Key  string         `json:"key"`
	Args map[string]any `json:"args,omitempty"`
}

// In says w in the language of c (nil: English), its sizes with the
// language's decimal mark (SizeIn).
func (w Why) In(c *lang.Catalogue) string {
	if c == nil {
		c = lang.Get(lang.Default)
	}
	kv := make([]any, 0, 2*len(w.Args))
	for k, v := range w.Args {
		if s, ok := v.(string); ok {
			v = SizeIn(c, s)
		}
		kv = append(kv, k, v)
	}
	return c.Msg(w.Key, kv...)
}

// sizeText matches a size as solve.ByteSize writes it ("212.9 MiB").
var sizeText = regexp.MustCompile(`^\d+\.\d [KMGT]iB$`)

// SizeIn writes a size as solve.ByteSize wrote it (s) with the decimal
// mark of c's language ("212,9 MiB" in Norwegian); anything else as it is.
func SizeIn(c *lang.Catalogue, s string) string {
	if !sizeText.MatchString(s) {
		return s
	}
	return strings.Replace(s, ".", c.Decimal, 1)
}

// WhyOf returns why err keeps a solver result away; the zero Why for nil.
func WhyOf(err error) Why {
	var tl *tooLargeError
	var stl *solve.TooLargeError
	var pe *PreparingError
	var tm *tooManyTriplesError
	switch {
	case err == nil:
		return Why{}
	case errors.As(err, &tl):
		return Why{Key: "solved.why.budget." + budgetKey(tl.budget), Args: map[string]any{"need": solve.ByteSize(tl.need), "limit": solve.ByteSize(tl.limit)}}
	case errors.As(err, &tm):
		return Why{Key: "solved.why.triples", Args: map[string]any{"triples": tm.triples, "limit": tm.limit}}
	case errors.As(err, &stl) && stl.Limit > 0 && stl.Limit < math.MaxInt64:
		return Why{Key: "solved.why.solverLimit", Args: map[string]any{"need": solve.ByteSize(stl.Need), "limit": solve.ByteSize(stl.Limit)}}
	case errors.Is(err, solve.ErrTooLarge):
		return Why{Key: "solved.why.tooLarge"}
	case errors.As(err, &pe) && pe.Total > 0:
		return Why{Key: "solved.why.preparingDone", Args: map[string]any{"percent": pe.Percent()}}
	case errors.Is(err, ErrNotReady):
		return Why{Key: "solved.why.preparing"}
	case errors.Is(err, ErrNoThreeTable):
		return Why{Key: "solved.why.noThree"}
	case errors.Is(err, ErrBusy):
		return Why{Key: "solved.why.busy"}
	case errors.Is(err, solve.ErrThreeBankMinimum):
		return Why{Key: "solved.why.threeBankMinimum"}
	case errors.Is(err, solve.ErrRules):
		return Why{Key: "solved.why.rules"}
	case errors.Is(err, ErrSolveFailed):
		return Why{Key: "solved.why.failed"}
	case errors.Is(err, context.Canceled):
		return Why{Key: "solved.why.shutdown"}
	}
	return Why{Key: "solved.why.unavailable"}
}

// budgetKey is the catalogue word of a budget ("" is the solver memory).
func budgetKey(b string) string {
	if b == "" {
		return "memory"
	}
	return b
}

// Reason returns why a solver result is not available, as a short phrase
// for players in English (no package prefixes): "the solver is busy", "its
// table would need 2.1 GiB, more than the solver memory of 512.0 MiB",
// "its table is being prepared (43%)", and so on; "" for nil. WhyOf gives
// it for other languages.
func Reason(err error) string {
	if err == nil {
		return ""
	}
	return WhyOf(err).In(nil)
}
