package tui

import (
	"errors"
	"strings"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/lang"
)

// The reasons the dice and the engine give (why a keep or a bank is not
// allowed) are English sentences; in another language the terminal says
// them itself, from the same facts.

// keepReasonIn is why keep is not a legal keep of throw under the table's
// rules, in the language of c; "" when it is legal. English is the dice
// package's own reason.
func keepReasonIn(c *lang.Catalogue, t *dice.Table, throw, keep dice.Hand) string {
	err := t.CheckKeep(throw, keep)
	var ke *dice.KeepError
	if !errors.As(err, &ke) {
		return ""
	}
	c = orEnglish(c)
	if c.Code == lang.Default {
		return ke.Reason
	}
	if keep == 0 {
		return c.Msg("tui.keep.none")
	}
	if !throw.Contains(keep) {
		return c.Msg("tui.keep.notThrown", "throw", throw.String())
	}
	bad := ke.Bad // the dice the dice package blames
	var parts []string
	for f := 1; f <= 6; f++ {
		if bad.Count(f) > 0 {
			parts = append(parts, faceUseIn(c, t, f))
		}
	}
	if len(parts) == 1 {
		return c.Msg("tui.keep.bad", "dice", bad.String(), "use", parts[0])
	}
	return c.Msg("tui.keep.bads", "dice", bad.String(), "uses", strings.Join(parts, "; "))
}

// faceUseIn says in which melds face f scores under the table's rules:
// "a 2 scores only as part of three or more of a kind or three pairs".
func faceUseIn(c *lang.Catalogue, t *dice.Table, f int) string {
	var kinds []string
	seen := map[string]bool{}
	ofAKind := 0
	for _, m := range t.Melds() {
		if m.Hand.Count(f) == 0 || m.Hand.N() == 1 {
			continue
		}
		key, _ := familyKey(m.Name)
		if strings.HasSuffix(key, " #s") {
			ofAKind++
			key = "of a kind"
		}
		if !seen[key] {
			seen[key] = true
			label := c.Msg("tui.keep.ofAKind")
			if key != "of a kind" {
				label = familyLabel(c, key)
			}
			kinds = append(kinds, label)
		}
	}
	if ofAKind == 1 {
		for i, k := range kinds {
			if k == c.Msg("tui.keep.ofAKind") {
				kinds[i] = familyLabel(c, "three #s")
			}
		}
	}
	switch len(kinds) {
	case 0:
		return c.Msg("tui.keep.never", "face", f)
	case 1:
		return c.Msg("tui.keep.only", "face", f, "melds", kinds[0])
	}
	return c.Msg("tui.keep.only", "face", f, "melds", strings.Join(kinds[:len(kinds)-1], ", ")+c.Msg("tui.lines.or")+kinds[len(kinds)-1])
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
		if why := keepReasonIn(c, s.Table(), s.Throw, a.Dice); why != "" {
			return c.Msg("tui.keep.refused", "dice", a.Dice.String(), "why", why)
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
