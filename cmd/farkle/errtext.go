package main

import (
	"regexp"
	"strings"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
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
	"gameview", "localplay", "appicon", "wasmbuild", "loadgen"}

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
	s := err.Error()
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
	return oneLine(s)
}
