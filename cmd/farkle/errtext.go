package main

import (
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
	"github.com/farkle/farkle/tui"
)

// packagePrefix matches the "pkg: " with which the errors of this module's
// packages begin (Go's convention, for programmers), at the start of the
// text or of a wrapped part (after ": ").
var packagePrefix = regexp.MustCompile(`(^|: )(?:` + strings.Join(modulePackages, "|") + `): `)

// modulePackages are the names of the module's packages that prefix their
// errors; TestModulePackagesComplete keeps the list in step with the module.
var modulePackages = []string{"abuse", "advise", "bot", "chart", "dice", "dragon", "engine", "explore", "game", "lang", "record",
	"rules", "rulestest", "server", "wsclient", "sim", "solve", "store", "sqlstore", "sqlite", "storetest", "tui",
	"online", "sshserve", "browsertest", "servertest", "tcpproxy", "rating", "tournament", "postgres", "pgtest", "syncbuf", "sshtest", "passkeytest", "securitydoc", "solved", "lru",
	"gameview", "localplay", "appicon", "wasmbuild", "loadgen", "testflags", "webtest", "site"}

// sayings are the sentinel errors whose own words, once the package prefix
// is gone, do not say enough to a person: each is said as the catalogue's
// text of key instead ("": dropped, when what follows says it all). They
// are matched by their text, so an error passed on with %v is said the
// same as one wrapped with %w.
var sayings = []struct {
	err error
	key string
}{
	{dice.ErrBadThrow, "cli.err.badThrow"},
	{rules.ErrInvalid, "cli.err.invalidRules"},
	{bot.ErrUnknownLevel, "cli.err.unknownLevel"},
	{solve.ErrTooLarge, "cli.err.tooLarge"},
	{solve.ErrInternal, "cli.err.solverInternal"},
	{solve.ErrNoConvergence, "cli.err.noConvergence"},
	{tui.ErrSave, ""}, // what follows names the file and what is wrong with it
}

// userText renders err for a person on one line, in English: the
// sentinels of sayings in their words, then without the package prefixes
// of the module's errors ("dice: ", "advise: ", "game: ", even doubled).
func userText(err error) string { return userTextIn(lang.Get(lang.Default), err) }

// userTextIn is userText with the sayings in the language of c (what
// follows them, the errors' details, stays in English).
func userTextIn(c *lang.Catalogue, err error) string {
	var say tui.Saying
	var pe *advise.PositionError // a Saying too, said below after "impossible position"
	if errors.As(err, &say) && !errors.As(err, &pe) {
		return oneLine(say.In(c)) // a sentence of the catalogue (the online client's network failures)
	}
	s := err.Error()
	// The errors that carry their catalogue key are said in the language,
	// and so are the errors they name.
	var ue *usageError
	if errors.As(err, &ue) && ue.key != "" {
		s = strings.ReplaceAll(s, ue.msg, strings.ReplaceAll(c.Msg(ue.key, kvIn(c, ue.kv)...), "\n", lineBreak))
	}
	if errors.As(err, &pe) {
		s = strings.ReplaceAll(s, pe.Error(), c.Msg("cli.err.position")+": "+pe.In(c))
	}
	var tle *solve.TooLargeError
	if errors.As(err, &tle) {
		s = strings.ReplaceAll(s, tle.Message(), tooLargeIn(c, tle))
	}
	var rf refusal
	if errors.As(err, &rf) {
		s = strings.ReplaceAll(s, rf.Say(lang.Get(lang.Default)), rf.Say(c))
	}
	for _, sy := range sayings {
		if sy.key == "" {
			s = strings.ReplaceAll(s, sy.err.Error()+": ", "")
		}
		say := ""
		if sy.key != "" {
			say = c.Msg(sy.key)
		}
		s = strings.ReplaceAll(s, sy.err.Error(), say)
	}
	for {
		t := packagePrefix.ReplaceAllString(s, "$1")
		if t == s {
			break
		}
		s = t
	}
	s = oneLine(phrased(c, s))
	return strings.ReplaceAll(strings.ReplaceAll(s, " "+lineBreak+" ", lineBreak), lineBreak, "\n")
}

// refusal is a game's refusal of an action, said in a language (a Dragon
// Farkle game's): where it stands in a longer error (an action of a
// record), its words take the place of its English.
type refusal interface {
	error
	Say(c *lang.Catalogue) string
}

// lineBreak stands for a line break of a catalogue's text while the rest
// of an error is put on one line: a text wider than a terminal is two.
const lineBreak = "\x1e"

// kvIn is kv, the names and values of a catalogue's text, with each error
// among the values said in the language of c (userTextIn).
func kvIn(c *lang.Catalogue, kv []any) []any {
	out := make([]any, len(kv))
	for i, v := range kv {
		if err, ok := v.(error); ok && i%2 == 1 {
			out[i] = userTextIn(c, err)
			continue
		}
		out[i] = v
	}
	return out
}

// playersError is the usage error of a --players the game refuses: the
// list given, and why (tui's words, in the language it is shown in).
func playersError(spec string, err error) error {
	return usageMsg("cli.err.flagValue", "flag", "players", "value", spec, "err", err)
}

// tooLargeIn is a solve refused for its memory, in the language of c: in
// English the solver's own sentence (what was refused, its dimensions),
// elsewhere the catalogue's: the need and the bound, in the language's
// decimal mark.
func tooLargeIn(c *lang.Catalogue, e *solve.TooLargeError) string {
	if c == lang.Get(lang.Default) {
		return e.Message()
	}
	key := "cli.err.needsMore"
	switch e.Limit {
	case 0:
		key = "cli.err.needsMoreIndex"
	case math.MaxInt64:
		key = "cli.err.needsMoreAny"
	}
	need := sizeIn(c, e.Need)
	if e.Need == math.MaxInt64 {
		need = c.Msg("cli.err.needsBeyond")
	}
	return c.Msg(key, "need", need, "limit", sizeIn(c, e.Limit))
}

// sizeIn is solve.ByteSize with the decimal mark of c's language.
func sizeIn(c *lang.Catalogue, n int64) string {
	return solved.SizeIn(c, solve.ByteSize(n))
}

// genIn writes x with prec significant digits as %g does (2.3e-08, 0.00026),
// with c's decimal separator.
func genIn(c *lang.Catalogue, x float64, prec int) string {
	return strings.Replace(strconv.FormatFloat(x, 'g', prec, 64), ".", c.Decimal, 1)
}
