// Command farkle plays, scores, solves and serves Farkle. Each subcommand
// lives in its own cmd_*.go file and registers itself in init.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
)

// command is one subcommand of farkle.
type command struct {
	name    string
	args    string // argument synopsis shown in usage, e.g. "[--json] DICE..."
	summary string // one line for the command list
	run     func(ctx context.Context, env *env, args []string) error
	// recordRules: the command plays by the rules of the game record it
	// reads, so it has no --rules; one given is refused saying so.
	recordRules bool
	// flagKeys is where the catalogue keys its flags' descriptions,
	// cli.flag.FLAGKEYS.FLAG: the name, or a subcommand's own ("db.backup",
	// whose --from is not db copy's).
	flagKeys string
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// env is what a subcommand may touch of the outside world, so tests can run
// Main in-process.
type env struct {
	stdin    io.Reader
	stdout   io.Writer
	stderr   io.Writer
	terminal bool // stdout is a terminal: progress bars and colours are welcome
	getenv   func(string) string
	lang     *lang.Catalogue // the language of the texts (nil: English; see lang.go)
	// setMemoryLimit sets the Go runtime's soft memory limit
	// (debug.SetMemoryLimit; limitMemory); nil leaves it alone.
	setMemoryLimit func(int64) int64
}

// usageError is bad usage or bad input: exit status 2.
type usageError struct {
	msg string
	key string // the catalogue's key of msg (usageMsg), "" for English only
	kv  []any
	err error // what it says, when it is another error as bad input (usageOf)
}

// Unwrap returns the error the usage error says, if any.
func (e *usageError) Unwrap() error { return e.err }

// usageOf is err as a usage error (exit status 2), in its own words.
func usageOf(err error) error { return &usageError{msg: err.Error(), err: err} }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// usageMsg is a usage error said by the catalogue's text of key: in
// English as its Error, in the language of the command when it is shown
// (userTextIn).
func usageMsg(key string, kv ...any) error {
	en := lang.Get(lang.Default)
	return &usageError{msg: en.Msg(key, kvIn(en, kv)...), key: key, kv: kv}
}

// exitError carries an exit status with an optional message already printed.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, terminal: isTerminal(os.Stdout), getenv: os.Getenv, setMemoryLimit: debug.SetMemoryLimit}
	code := Main(ctx, e, os.Args[1:])
	stop()
	os.Exit(code)
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// exitInterrupted is the exit status of a command stopped by a signal.
const exitInterrupted = 130

// Main runs farkle with args (without the program name) and returns the
// exit status: 0 success, 1 failure, 2 bad usage or input, 130 stopped by
// SIGINT or SIGTERM before it was done.
func Main(ctx context.Context, e *env, args []string) int {
	e.langFromEnv()
	args, err := globalLang(e, args)
	if err != nil {
		fmt.Fprintf(e.stderr, "farkle: %s\n", userTextIn(e.cat(), err))
		return 2
	}
	if len(args) == 0 { // no command: a usage error
		printUsage(e.stderr, e.cat())
		return 2
	}
	if args[0] == "help" && len(args) == 2 && commands[args[1]] != nil {
		args = []string{args[1], "-h"} // farkle help COMMAND is farkle COMMAND -h
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		printUsage(e.stdout, e.cat())
		return 0
	}
	if args[0] == "--version" || args[0] == "-version" {
		args = append([]string{"version"}, args[1:]...)
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "farkle: %s\n", e.msg("cli.unknownCommand", "name", strconv.Quote(args[0]), "names", strings.Join(commandNames(), ", ")))
		return 2
	}
	if err := argsLang(e, args[1:]); err != nil {
		fmt.Fprintf(e.stderr, "farkle %s: %s\n", c.name, userTextIn(e.cat(), err))
		return 2
	}
	err = c.run(ctx, e, args[1:])
	var ue *usageError
	var ee *exitError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ee):
		return ee.code
	case ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)):
		// stopped by SIGINT or SIGTERM: said as such, with the shell's
		// status of a command ended by Ctrl-C (128 + 2)
		fmt.Fprintf(e.stderr, "farkle %s: %s\n", c.name, e.msg("cli.interrupted"))
		return exitInterrupted
	case errors.As(err, &ue), errors.Is(err, rules.ErrInvalid), errors.Is(err, rules.ErrUnknownPreset):
		fmt.Fprintf(e.stderr, "farkle %s: %s\n", c.name, userTextIn(e.cat(), err))
		return 2
	default:
		fmt.Fprintf(e.stderr, "farkle %s: %s\n", c.name, userTextIn(e.cat(), err))
		return 1
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// printUsage prints farkle help in the language of c.
func printUsage(out io.Writer, c *lang.Catalogue) {
	var w strings.Builder
	defer func() { io.WriteString(out, fitWidth(w.String(), outWidth(out))) }()
	fmt.Fprintln(&w, c.Msg("cli.help.title"))
	fmt.Fprintf(&w, "\n%s\n\n%s\n", c.Msg("cli.help.usage"), c.Msg("cli.help.commands"))
	for _, n := range commandNames() {
		fmt.Fprintf(&w, "  %-8s %s\n", n, helpIn(c, "cli.help."+n+".summary", commands[n].summary))
	}
	fmt.Fprintf(&w, "\n%s\n", c.Msg("cli.help.footer"))
}

// helpIn is an English help text (a command's summary, a flag's
// description) in the language of c, by its catalogue key; a text the
// catalogue does not have stays English (TestHelpEnglishFromCatalogue
// holds the English catalogue to the texts in the code).
func helpIn(c *lang.Catalogue, key, english string, kv ...any) string {
	if helpTexts != nil {
		helpTexts[key] = helpText{english, kv}
	}
	if c == nil || !c.Has(key) {
		return english
	}
	return helpMsg(c, key, english, kv...)
}

// helpMsg is the catalogue's text of key, whose English is english and
// whose {names} kv gives. An example of a JSON answer ("print JSON:
// {...}") is the text's {json}: a catalogue text cannot hold braces of
// its own, and the example is not translated.
func helpMsg(c *lang.Catalogue, key, english string, kv ...any) string {
	_, example, _ := strings.Cut(english, "JSON: ")
	return c.Msg(key, append([]any{"json", example}, kv...)...)
}

// helpText is an English help text and the values of the {names} its
// catalogue texts fill.
type helpText struct {
	english string
	kv      []any
}

// helpTexts, when a test sets it, gathers the English help texts by key.
var helpTexts map[string]helpText

// helpPara is a paragraph (or several) of a command's longer help, said
// in the language of a catalogue.
type helpPara func(cat *lang.Catalogue) string

// para is english, a command's longer help, as the catalogue's text key
// says it; kv gives the values of its {names}.
func para(key, english string, kv ...any) helpPara {
	return func(cat *lang.Catalogue) string { return helpIn(cat, key, english, kv...) }
}

// defaultNote matches flag.PrintDefaults's note of a default value.
var defaultNote = regexp.MustCompile(`(?m)\(default (.*)\)$`)

// newFlags returns a flag set for a subcommand that prints its usage, asked
// for with -h or --help, to env's stdout (so farkle play -h | less shows it)
// and reports errors as usage errors (parseFlags), which go to stderr.
func newFlags(e *env, c *command) *flag.FlagSet {
	fs := flag.NewFlagSet("farkle "+c.name, flag.ContinueOnError)
	fs.SetOutput(e.stdout)
	addLangFlag(fs)
	fs.Usage = func() { writeHelp(e.cat(), fs, c) }
	return fs
}

// parseFlags parses args; a bad flag becomes a usage error (exit 2) whose
// one line replaces flag's own message and usage. -h prints the usage.
func parseFlags(fs *flag.FlagSet, args []string) error {
	out := fs.Output()
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.SetOutput(out)
	if errors.Is(err, flag.ErrHelp) {
		var b strings.Builder
		fs.SetOutput(&b)
		fs.Usage()
		fs.SetOutput(out)
		io.WriteString(out, fitWidth(b.String(), outWidth(out)))
		return err
	}
	name := strings.TrimPrefix(fs.Name(), "farkle ")
	if c := commands[name]; err != nil && c != nil && c.recordRules && fs.Lookup("rules") == nil && givesRules(args) {
		return usageMsg("cli.flag.recordRules", "cmd", name)
	}
	if err != nil {
		return flagError(fs, name, err)
	}
	return nil
}

// flagErrors match the errors of package flag, to be said by the
// catalogue: the flag's name, and the value refused and why.
var flagErrors = []struct {
	re  *regexp.Regexp
	key string
}{
	{regexp.MustCompile(`^flag provided but not defined: -+(.*)$`), "cli.flag.unknown"},
	{regexp.MustCompile(`^flag needs an argument: -+(.*)$`), "cli.flag.needsValue"},
	{regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-([^:]*): (.*)$`), "cli.flag.badValue"},
	{regexp.MustCompile(`^invalid boolean flag ([^:]*): (.*)$`), "cli.flag.notBool"},
	{regexp.MustCompile(`^bad flag syntax: (.*)$`), "cli.flag.syntax"},
}

// flagError is err, an error of flag parsing the flags of command cmd, as
// a usage error the catalogue says: a value refused is said by the kind
// of value the flag wants.
func flagError(fs *flag.FlagSet, cmd string, err error) error {
	text := err.Error()
	for _, fe := range flagErrors {
		m := fe.re.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		switch fe.key {
		case "cli.flag.unknown", "cli.flag.needsValue", "cli.flag.syntax":
			return usageMsg(fe.key, "flag", m[1], "cmd", cmd)
		case "cli.flag.notBool":
			return usageMsg("cli.flag.notBool", "flag", m[1], "value", "", "cmd", cmd)
		}
		if strings.HasPrefix(text, "invalid boolean value") {
			return usageMsg("cli.flag.notBool", "flag", m[2], "value", m[1], "cmd", cmd)
		}
		value, name, why := m[1], m[2], m[3]
		key := "cli.flag.badValue"
		if why == "value out of range" {
			key = "cli.flag.outOfRange"
		} else if f := fs.Lookup(name); f != nil && why == "parse error" {
			if g, ok := f.Value.(flag.Getter); ok {
				switch g.Get().(type) {
				case int, int64, uint, uint64, float64:
					key = "cli.flag.notNumber"
				case time.Duration:
					key = "cli.flag.notDuration"
				}
			}
		}
		return usageMsg(key, "flag", name, "value", strconv.Quote(value), "why", why, "cmd", cmd)
	}
	return usagef("%s (see farkle %s -h)", text, cmd)
}

// givesRules reports whether args give a --rules flag (before any "--").
func givesRules(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && name == "rules" {
			return true
		}
	}
	return false
}

// flagLine matches the first line of a flag in flag.PrintDefaults: its
// name and the name of its value.
var flagLine = regexp.MustCompile(`^  -(\S+) (\S+)`)

// typeNameIn is line of flag.PrintDefaults with the name of a flag's
// value said in the language of cat when it is the value's type ("-games
// int"), not a name its description gives (a `FILE`, already in that
// language).
func typeNameIn(cat *lang.Catalogue, fs *flag.FlagSet, line string) string {
	m := flagLine.FindStringSubmatchIndex(line)
	if m == nil {
		return line
	}
	f := fs.Lookup(line[m[2]:m[3]])
	typ := line[m[4]:m[5]]
	key := "cli.help.type." + typ
	if f == nil || strings.Contains(f.Usage, "`") || cat == nil || !cat.Has(key) {
		return line
	}
	if helpTexts != nil {
		helpTexts[key] = helpText{english: typ}
	}
	return line[:m[4]] + cat.Msg(key) + line[m[5]:]
}

// writeHelp writes c's -h to fs's output in the language of cat: its
// usage, summary, details (a command's longer help, its paragraphs; none
// for none) and flags.
func writeHelp(cat *lang.Catalogue, fs *flag.FlagSet, c *command, details ...helpPara) {
	{
		summary := helpIn(cat, "cli.help."+c.name+".summary", c.summary)
		for i, p := range details {
			if i == 0 {
				summary += "."
			}
			summary += "\n\n" + p(cat)
		}
		fmt.Fprintf(fs.Output(), "%s\n\n%s\n\n%s\n", cat.Msg("cli.help.usageOf", "cmd", c.name, "args", strings.ReplaceAll(c.args, "[flags]", cat.Msg("cli.help.flagsArg"))), summary, cat.Msg("cli.help.flags"))
		fs.VisitAll(func(f *flag.Flag) {
			keys := c.name
			if c.flagKeys != "" {
				keys = c.flagKeys
			}
			key := "cli.flag." + keys + "." + f.Name
			if common := "cli.flag.common." + f.Name; !cat.Has(key) && cat.Has(common) {
				key = common // the same flag of every command (--lang, --rules)
			}
			f.Usage = helpIn(cat, key, f.Usage)
		})
		var b strings.Builder
		out := fs.Output()
		fs.SetOutput(&b)
		fs.PrintDefaults()
		fs.SetOutput(out)
		for _, line := range strings.SplitAfter(b.String(), "\n") {
			line = typeNameIn(cat, fs, line)
			if m := defaultNote.FindStringSubmatchIndex(line); m != nil {
				line = line[:m[0]] + cat.Msg("cli.help.default", "value", line[m[2]:m[3]]) + line[m[1]:]
			}
			io.WriteString(out, line)
		}
	}
}
