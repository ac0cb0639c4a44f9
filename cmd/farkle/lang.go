package main

import (
	"flag"
	"strconv"
	"strings"

	"github.com/farkle/farkle/lang"
)

// The language of the game texts a command prints (and of the error texts
// Main prints) is chosen by --lang, given before the command (farkle --lang
// nb replay FILE) or among the flags of a command that prints game texts;
// without it, by the environment as POSIX programs read it (LC_ALL,
// LC_MESSAGES, LANG, and LANGUAGE), English when it names no language there
// is a catalogue for. Machine-readable output (--json) does not change.

// cat returns the catalogue of e's language (English until one is chosen).
func (e *env) cat() *lang.Catalogue {
	if e.lang == nil {
		return lang.Get(lang.Default)
	}
	return e.lang
}

// msg is e.cat().Msg.
func (e *env) msg(key string, kv ...any) string { return e.cat().Msg(key, kv...) }

// langFromEnv sets e's language from the environment.
func (e *env) langFromEnv() {
	if e.getenv != nil {
		e.lang = lang.Get(lang.FromEnv(e.getenv))
	}
}

// setLang sets e's language to the one --lang names; "" keeps the one the
// environment chose. An unknown language is a usage error naming those
// there are.
func (e *env) setLang(tag string) error {
	if tag == "" {
		return nil
	}
	code, ok := lang.Parse(tag)
	if !ok {
		return usagef("%s", e.msg("cli.unknownLang", "tag", strconv.Quote(tag), "langs", strings.Join(lang.Codes(), ", ")))
	}
	e.lang = lang.Get(code)
	return nil
}

// addLangFlag adds --lang to fs: every command takes it, so that its
// errors (and the texts of those that print game texts) are said in it.
func addLangFlag(fs *flag.FlagSet) {
	fs.String("lang", "", "language of the texts: "+strings.Join(lang.Codes(), ", ")+" (default: from LANG, LC_ALL, LC_MESSAGES, LANGUAGE; else en)")
}

// langFlag returns the function that, called after parsing, sets e's
// language from fs's --lang (newFlags adds it).
func langFlag(e *env, fs *flag.FlagSet) func() error {
	v := fs.Lookup("lang").Value
	return func() error { return e.setLang(v.String()) }
}

// argsLang sets e's language from a --lang among a command's arguments
// (before any "--") before the command runs, so that an error in a flag
// before it, or in one flag parsing does not reach, is said in it too. An
// unknown language is a usage error.
func argsLang(e *env, args []string) error {
	for i, a := range args {
		if a == "--" {
			return nil
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "lang" {
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil // flag parsing says it needs a value
			}
			val = args[i+1]
		}
		return e.setLang(val)
	}
	return nil
}

// globalLang takes a --lang given before the command off args and sets
// e's language from it.
func globalLang(e *env, args []string) ([]string, error) {
	if len(args) == 0 {
		return args, nil
	}
	a := args[0]
	name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
	if !strings.HasPrefix(a, "-") || name != "lang" {
		return args, nil
	}
	rest := args[1:]
	if !hasVal {
		if len(rest) == 0 {
			return nil, usagef("%s", e.msg("cli.needLang", "langs", strings.Join(lang.Codes(), ", ")))
		}
		val, rest = rest[0], rest[1:]
	}
	if val == "" {
		return nil, usagef("%s", e.msg("cli.needLang", "langs", strings.Join(lang.Codes(), ", ")))
	}
	return rest, e.setLang(val)
}
