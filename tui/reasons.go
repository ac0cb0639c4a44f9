package tui

import (
	"errors"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/lang"
)

// The engine's reasons (why a bank is not allowed) are English
// sentences; in another language the terminal says them itself, from the
// same facts. The dice package's (why a keep does not score) come keyed
// and are said in any language (dice.KeepError.Say).

// keepReasonIn is why keep is not a legal keep of throw under the table's
// rules, in the language of c; "" when it is legal.
func keepReasonIn(c *lang.Catalogue, t *dice.Table, throw, keep dice.Hand) string {
	var ke *dice.KeepError
	if !errors.As(t.CheckKeep(throw, keep), &ke) {
		return ""
	}
	return ke.Say(orEnglish(c))
}

// bankReasonIn is why the player to act cannot bank in s, in the language
// of c; "" when they can. English is the engine's own reason.
func bankReasonIn(c *lang.Catalogue, s engine.State) string {
	ok, why := s.CanBank()
	if ok {
		return ""
	}
	c = orEnglish(c)
	if c.Code == lang.Default {
		return why
	}
	t := s.Rules().Turn
	switch {
	case s.Phase != engine.PhasePlay || s.Step != engine.StepChoose:
		return c.Msg("tui.bank.keepFirst")
	case s.Total < t.BankMinimum:
		return c.Msg("tui.bank.minimum", "total", s.Total, "min", t.BankMinimum)
	case s.Players[s.Current].Score == 0 && s.Total < t.EntryMinimum:
		return c.Msg("tui.bank.entry", "total", s.Total, "min", t.EntryMinimum)
	}
	return why
}

// errorIn is the reason of an error of the engine for the player, in the
// language of c where the terminal knows it (an illegal keep, a throw
// before a keep, a bank refused), else the engine's (Reason).
func errorIn(c *lang.Catalogue, s engine.State, a engine.Action, err error) string {
	c = orEnglish(c)
	if c.Code == lang.Default || s.Phase != engine.PhasePlay || err == nil {
		return Reason(err)
	}
	switch {
	case a.Kind == engine.Keep && s.Step == engine.StepKeep:
		var ke *dice.KeepError
		if errors.As(err, &ke) {
			return c.Msg("tui.keep.refused", "dice", a.Dice.String(), "why", ke.Say(c))
		}
	case a.Kind == engine.Throw && s.Step == engine.StepKeep:
		return c.Msg("tui.throw.keepFirst", "dice", s.Throw.String())
	case a.Kind == engine.Bank:
		if why := bankReasonIn(c, s); why != "" {
			return c.Msg("tui.bank.refused", "why", why)
		}
	}
	return Reason(err)
}
