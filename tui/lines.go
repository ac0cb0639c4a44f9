package tui

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/lang"
)

// lineWords are the words of line mode's commands in every language, by
// the English command: each language's words are accepted whatever the
// language of the game ("kast" throws in an English game too), so that a
// script works under any LANG. The first letters (k, r, b, h, s, q) and ?
// are the same in every language.
var lineWords = map[string]string{
	"quit": "quit", "q": "quit", "exit": "quit", "avslutt": "quit",
	"help": "help", "h?": "help", "?": "help", "hjelp": "help",
	"score": "score", "s": "score", "poeng": "score", "stilling": "score",
	"hint": "hint", "h": "hint", "tips": "hint",
	"roll": "roll", "r": "roll", "throw": "roll", "kast": "roll",
	"bank": "bank", "b": "bank", "sett inn": "bank",
	"keep": "keep", "k": "keep", "behold": "keep",
}

// RunLines plays g as lines of text, for pipes, scripts and screen readers.
// It reads one command a line from in: keep DICE, roll, bank, hint, score,
// help, quit (or their first letters; "?" for help). It writes one line per
// event to out: "turn: ana (score 1200)" when a turn starts, "throw: 1 1 3 4
// 5 6" after every throw of a person, "choose: roll 3 dice or bank 250"
// when a person has kept and must decide, each bot action as a sentence
// ("steady keeps 1 5 for 150 (turn 150)"), "error: ..." for a command that
// is refused (nothing changes), and at the end "winner: ana with 10250".
// A person's first throw of a turn (and a forced throw) is made for them.
// At quit, at the end of input or when ctx is done the game is saved and
// "saved: FILE" is printed. The error is that of writing or reading.
func RunLines(ctx context.Context, g *Game, in io.Reader, out io.Writer, adv Advisor) error {
	if adv == nil {
		adv = PointsAdvisor{}
	}
	w := bufio.NewWriter(out)
	l := &lines{g: g, w: w, adv: adv, c: g.Lang()}
	l.intro()
	if names := g.NeedsPrepare(); len(names) > 0 {
		l.msg("tui.lines.preparing", "names", strings.Join(names, ", "))
		if err := w.Flush(); err != nil {
			return err
		}
		if err := l.prepare(ctx); err != nil {
			l.msg("tui.lines.simpler", "err", err.Error())
		}
	}
	return lineLoop(ctx, in, w, l, func() bool {
		l.advance()
		return g.Over()
	}, g.Winners)
}

// prepare prepares the bots, saying how far a solve is at each of its
// sweeps (when the game follows its solves: Game.FollowSolves). When ctx
// ends meanwhile the solve still finishes, so that its work is cached.
func (l *lines) prepare(ctx context.Context) error {
	g := l.g
	done := make(chan error, 1)
	if g.meter != nil {
		g.meter.Expect(g.Rules())
	}
	go func() { done <- g.Prepare() }()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	sweep, stop := 0, ctx.Done()
	for {
		select {
		case err := <-done:
			return err
		case <-stop:
			stop = nil
			l.msg("tui.lines.finishing")
		case <-tick.C:
			if g.meter == nil {
				continue
			}
			if st, ok := g.meter.Status(); ok && st.sweep != sweep {
				sweep = st.sweep
				l.msg("tui.lines.progress", "status", st.stringIn(l.c))
			}
		}
		if err := l.w.Flush(); err != nil {
			return err
		}
	}
}

// sayTo writes one line of line mode to w.
func sayTo(w *bufio.Writer, format string, args ...any) {
	fmt.Fprintf(w, format, args...)
	w.WriteByte('\n')
}

// savedGame is a game of line mode (Game, DragonGame) as saveAndSay sees
// it.
type savedGame interface {
	Path() string
	Save() error
	Over() bool
}

// saveAndSayIn saves g and says with say, in the language of c, where,
// or why not; a game without a file is not saved and nothing is said.
func saveAndSayIn(c *lang.Catalogue, g savedGame, say func(format string, args ...any)) {
	c = orEnglish(c)
	if g.Path() == "" {
		return
	}
	if err := g.Save(); err != nil {
		say("%s", c.Msg("tui.lines.saveFailed", "err", Reason(err)))
		return
	}
	if g.Over() {
		say("%s", c.Msg("tui.lines.saved", "file", g.Path()))
	} else {
		say("%s", c.Msg("tui.lines.savedResume", "file", g.Path()))
	}
}

// seatNamesIn names the seats for line mode's first line in the
// language of c: "ana", or "steady (bot: steady)" for a bot.
func seatNamesIn(c *lang.Catalogue, seats []Seat) []string {
	c = orEnglish(c)
	var who []string
	for _, s := range seats {
		if s.IsBot() {
			who = append(who, c.Msg("tui.lines.seatBot", "name", s.Name, "level", s.Bot))
		} else {
			who = append(who, s.Name)
		}
	}
	return who
}

// lineDriver is a game's side of line mode (lines, dragonLines).
type lineDriver interface {
	say(format string, args ...any)
	// saved prints where the game was saved.
	saved()
	// command carries out one line of input.
	command(line string) (quit bool)
}

// lineLoop is the read loop of line mode, shared by RunLines and
// RunDragonLines. Before each read it calls over, which plays what needs
// no person and reports whether the game is over; then it prints
// winners() and the save. At quit, at the end of in or when ctx is done
// it prints the save. Output is flushed before each read. The error is
// that of writing or reading.
func lineLoop(ctx context.Context, in io.Reader, w *bufio.Writer, d lineDriver, over func() bool, winners func() string) error {
	stop := make(chan struct{})
	defer close(stop)
	input := readLines(in, stop)
	for {
		if over() {
			d.say("%s", winners())
			d.saved()
			return w.Flush()
		}
		if err := w.Flush(); err != nil {
			return err
		}
		var line inputLine
		select {
		case <-ctx.Done():
			line.eof = true
		case line = <-input:
		}
		if line.eof {
			d.saved()
			if err := w.Flush(); err != nil {
				return err
			}
			return line.err
		}
		if quit := d.command(line.text); quit {
			d.saved()
			return w.Flush()
		}
	}
}

// inputLine is one line read, or the end of the input (with the read
// error, if any).
type inputLine struct {
	text string
	eof  bool
	err  error
}

// readLines reads in line by line in a goroutine, so that RunLines can
// stop on ctx while a read blocks. The goroutine ends at the end of in, or
// when stop is closed and it has a line to hand over.
func readLines(in io.Reader, stop <-chan struct{}) <-chan inputLine {
	ch := make(chan inputLine)
	go func() {
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			select {
			case ch <- inputLine{text: sc.Text()}:
			case <-stop:
				return
			}
		}
		select {
		case ch <- inputLine{eof: true, err: sc.Err()}:
		case <-stop:
		}
	}()
	return ch
}

type lines struct {
	g      *Game
	w      *bufio.Writer
	adv    Advisor
	c      *lang.Catalogue
	hinted bool // a hint was asked for already
}

func (l *lines) say(format string, args ...any) {
	sayTo(l.w, format, args...)
}

// msg says the text of key.
func (l *lines) msg(key string, kv ...any) {
	sayTo(l.w, "%s", l.c.Msg(key, kv...))
}

// turn announces the turn of player p.
func (l *lines) turn(s engine.State, p int) {
	name := s.Players[p].Name
	if o := l.g.online; o != nil && o.you == p {
		name = youName(l.c) // at a server, this terminal's player is spoken to
	}
	l.msg("tui.lines.turn", "name", name, "score", s.Players[p].Score, "solo", soloCountIn(l.c, s))
}

func (l *lines) intro() {
	g := l.g
	r := g.Rules()
	who := seatNamesIn(l.c, g.Seats())
	l.msg("tui.lines.intro", "rules", r.Name, "target", r.Game.Target, "players", strings.Join(who, ", "))
	l.msg("tui.lines.commands", "commands", l.c.Msg("tui.lines.commandList"))
	if g.State().Version > 0 {
		l.msg("tui.lines.resumed", "file", g.Path())
		l.score()
	}
	if s := g.State(); s.Phase == engine.PhasePlay && !s.Over() {
		// The turn in progress (the first turn when the game starts
		// without a roll-off) has not been announced by an event.
		l.turn(s, s.Current)
		if s.Step == engine.StepKeep {
			l.msg("tui.lines.throw", "dice", s.Throw.String())
		}
	}
	l.prompt()
}

// advance plays every action that needs no person's decision, printing
// the events, until a person must decide or the game is over.
func (l *lines) advance() {
	g := l.g
	for !g.Over() {
		s := g.State()
		var ev []engine.Event
		var err error
		switch {
		case g.AutoToAct():
			_, ev, err = g.Auto()
		case s.Step == engine.StepThrow:
			ev, err = g.Do(engine.ThrowBy(s.Current))
		default:
			return
		}
		if err != nil {
			l.msg("tui.lines.error", "err", Reason(err))
			return
		}
		l.events(ev)
		l.prompt()
	}
}

// events prints one line per event.
func (l *lines) events(ev []engine.Event) {
	g := l.g
	names := g.Names()
	s := g.State()
	for _, e := range ev {
		person := e.Player >= 0 && e.Player < len(g.Seats()) && !g.Seats()[e.Player].IsBot()
		if g.online != nil {
			person = e.Player == g.online.you // at a server: this terminal's player
		}
		switch {
		case e.Kind == engine.EvTurn:
			l.turn(s, e.Player)
		case e.Kind == engine.EvThrow && person:
			l.msg("tui.lines.throw", "dice", e.Dice.String())
		case e.Kind == engine.EvGameOver:
			// RunLines prints the winner line.
		default:
			l.say("%s", g.describe(l.c, e))
		}
	}
	if len(ev) > 0 && !g.Over() && s.Phase == engine.PhasePlay && s.Step == engine.StepKeep {
		if clock := clockLineIn(l.c, g.online, names); clock != "" {
			l.say("%s", clock) // the throw to keep from is this player's decision
		}
	}
}

// prompt says what a person must decide after a keep.
func (l *lines) prompt() {
	g := l.g
	s := g.State()
	if g.Over() || g.AutoToAct() || g.Waiting() || s.Step != engine.StepChoose {
		return
	}
	c := l.c
	var opts []string
	if s.CanThrow() {
		n := s.ToThrow()
		if s.Left == 0 {
			opts = append(opts, c.Msg("tui.lines.rollHot", "n", n))
		} else {
			opts = append(opts, c.Msg("tui.lines.roll", "n", n))
		}
	}
	ok, _ := s.CanBank()
	if ok {
		opts = append(opts, c.Msg("tui.lines.bank", "total", s.Total))
	}
	line := c.Msg("tui.lines.choose", "options", strings.Join(opts, c.Msg("tui.lines.or")))
	if !ok {
		line += " " + c.Msg("tui.lines.noBank", "why", bankReasonIn(c, s))
	}
	l.say("%s", line)
	if clock := clockLineIn(c, g.online, g.Names()); clock != "" {
		l.say("%s", clock)
	}
}

// soloCountIn is the turn counter of a game of one for its turn line, in
// the language of c: ", turn 7" (see soloTurnIn); "" with more players.
func soloCountIn(c *lang.Catalogue, s engine.State) string {
	if len(s.Players) != 1 {
		return ""
	}
	return ", " + soloTurnIn(c, s)
}

// command runs one line of input and reports whether the player quits.
func (l *lines) command(line string) (quit bool) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		l.remind()
		return false
	}
	g := l.g
	c := l.c
	s := g.State()
	me := s.Actor()
	word := strings.ToLower(fields[0])
	if len(fields) > 1 {
		if two := word + " " + strings.ToLower(fields[1]); lineWords[two] != "" {
			word, fields = two, append([]string{fields[0] + " " + fields[1]}, fields[2:]...)
		}
	}
	var act engine.Action
	switch lineWords[word] {
	case "quit":
		return true
	case "help":
		l.help()
		return false
	case "score":
		l.score()
		return false
	case "hint":
		l.hint()
		return false
	case "roll":
		act = engine.ThrowBy(me)
	case "bank":
		act = engine.BankBy(me)
	case "keep":
		arg := strings.Join(fields[1:], " ")
		if arg == "" {
			l.msg("tui.lines.keepWhich", "dice", s.Throw.String())
			return false
		}
		k, err := dice.Parse(arg)
		if err != nil {
			l.msg("tui.lines.keepBad", "arg", arg, "err", Reason(err))
			return false
		}
		act = engine.KeepBy(me, k)
	default:
		l.msg("tui.lines.unknown", "word", fmt.Sprintf("%q", fields[0]), "commands", c.Msg("tui.lines.commandList"))
		return false
	}
	if len(fields) > 1 && act.Kind != engine.Keep {
		l.msg("tui.lines.noArgs", "word", fields[0])
		return false
	}
	ev, err := g.Do(act)
	if err != nil {
		l.msg("tui.lines.error", "err", errorIn(c, s, act, err))
		return false
	}
	l.events(ev)
	l.prompt()
	return false
}

// remind answers an empty line: what the game waits for.
func (l *lines) remind() {
	s := l.g.State()
	if s.Step != engine.StepKeep {
		l.prompt()
		return
	}
	eg := ""
	if adv, err := (PointsAdvisor{}).Advise(s); err == nil && len(adv.Choices) > 0 {
		eg = " " + l.c.Msg("tui.lines.most", "dice", adv.Choices[0].Keep.String())
	}
	l.msg("tui.lines.remind", "dice", s.Throw.String(), "most", eg)
}

func (l *lines) help() {
	c := l.c
	l.msg("tui.lines.helpCommands", "commands", c.Msg("tui.lines.commandList"))
	l.msg("tui.lines.helpWords")
	l.msg("tui.lines.helpHow")
	for _, line := range RulesTextIn(c, l.g.Rules(), 100) {
		l.msg("tui.lines.helpLine", "line", line)
	}
}

func (l *lines) score() {
	g := l.g
	c := l.c
	s := g.State()
	r := g.Rules()
	for i, p := range s.Players {
		line := c.Msg("tui.lines.score", "name", p.Name, "score", p.Score)
		if i == s.Current && !s.Over() && s.Phase == engine.PhasePlay {
			line += ", " + c.Msg("tui.lines.toPlay")
		}
		if p.Score == 0 && r.Turn.EntryMinimum > 0 {
			line += ", " + c.Msg("tui.lines.notOn", "points", r.Turn.EntryMinimum)
		}
		if p.Streak > 0 {
			line += ", " + c.Msg("tui.lines.streak", "n", p.Streak)
		}
		l.say("%s", line)
	}
	line := c.Msg("tui.lines.target", "target", r.Game.Target)
	switch {
	case s.Phase != engine.PhasePlay || s.Over():
	case s.Step == engine.StepKeep:
		line += ", " + c.Msg("tui.lines.totalKeep", "total", s.Total, "dice", s.Throw.String())
	default:
		line += ", " + c.Msg("tui.lines.totalThrow", "total", s.Total, "n", s.ToThrow())
	}
	if s.FinalRound {
		line += ", " + c.Msg("tui.lines.finalRound", "name", s.Players[s.Trigger].Name)
	}
	l.say("%s", line)
}

func (l *lines) hint() {
	lc := l.c
	if _, quick := l.adv.(PointsAdvisor); !quick && !l.hinted {
		l.msg("tui.lines.hintThinking")
		l.w.Flush()
	}
	l.hinted = true
	adv, err := l.adv.Advise(l.g.State())
	if err != nil {
		l.msg("tui.lines.hintError", "err", err.Error())
		return
	}
	if note := adv.noteIn(lc); note != "" {
		l.msg("tui.lines.hint", "text", note)
	}
	for _, c := range adv.Choices {
		text := lc.Msg("tui.lines.hintValue", "choice", c.labelIn(lc), "value", adv.formatIn(lc, c.Value), "measure", adv.measureIn(lc))
		note := c.noteIn(lc)
		switch {
		case math.IsNaN(c.Value):
			text = lc.Msg("tui.lines.hintNote", "choice", c.labelIn(lc), "note", note)
		case note != "":
			text += " (" + note + ")"
		}
		l.msg("tui.lines.hint", "text", text)
	}
}

// saved saves the game and says where, or why not.
func (l *lines) saved() {
	saveAndSayIn(l.c, l.g, l.say)
}
