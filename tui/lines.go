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
)

// lineCommands is the command summary of line mode.
const lineCommands = "keep DICE (e.g. keep 1 1 5), roll, bank, hint, score, help, quit"

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
	l := &lines{g: g, w: w, adv: adv}
	l.intro()
	if names := g.NeedsPrepare(); len(names) > 0 {
		l.say("preparing: %s (solving the game for these rules: minutes the first time, then cached)", strings.Join(names, ", "))
		if err := w.Flush(); err != nil {
			return err
		}
		if err := l.prepare(ctx); err != nil {
			l.say("error: %v (playing at a simpler level)", err)
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
			l.say("preparing: finishing the solve first, so that it is cached")
		case <-tick.C:
			if g.meter == nil {
				continue
			}
			if st, ok := g.meter.Status(); ok && st.sweep != sweep {
				sweep = st.sweep
				l.say("preparing: %s", st)
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

// saveAndSay saves g and says with say where, or why not; a game without
// a file is not saved and nothing is said.
func saveAndSay(g savedGame, say func(format string, args ...any)) {
	if g.Path() == "" {
		return
	}
	if err := g.Save(); err != nil {
		say("error: the game could not be saved: %s", Reason(err))
		return
	}
	if g.Over() {
		say("saved: %s", g.Path())
	} else {
		say("saved: %s (resume with: farkle play --resume %s)", g.Path(), g.Path())
	}
}

// seatNames names the seats for line mode's first line: "ana", or
// "steady (bot: steady)" for a bot.
func seatNames(seats []Seat) []string {
	var who []string
	for _, s := range seats {
		if s.IsBot() {
			who = append(who, fmt.Sprintf("%s (bot: %s)", s.Name, s.Bot))
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
	hinted bool // a hint was asked for already
}

func (l *lines) say(format string, args ...any) {
	sayTo(l.w, format, args...)
}

func (l *lines) intro() {
	g := l.g
	r := g.Rules()
	who := seatNames(g.Seats())
	l.say("farkle: %s rules, first to %d; players: %s", r.Name, r.Game.Target, strings.Join(who, ", "))
	l.say("commands: %s", lineCommands)
	if g.State().Version > 0 {
		l.say("resumed: %s", g.Path())
		l.score()
	}
	if s := g.State(); s.Phase == engine.PhasePlay && !s.Over() {
		// The turn in progress (the first turn when the game starts
		// without a roll-off) has not been announced by an event.
		l.say("turn: %s (score %d%s)", s.Players[s.Current].Name, s.Players[s.Current].Score, soloCount(s))
		if s.Step == engine.StepKeep {
			l.say("throw: %s", s.Throw)
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
			l.say("error: %s", Reason(err))
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
		switch {
		case e.Kind == engine.EvTurn:
			l.say("turn: %s (score %d%s)", names[e.Player], s.Players[e.Player].Score, soloCount(s))
		case e.Kind == engine.EvThrow && person:
			l.say("throw: %s", e.Dice)
		case e.Kind == engine.EvGameOver:
			// RunLines prints the winner line.
		default:
			l.say("%s", Describe(e, names))
		}
	}
}

// prompt says what a person must decide after a keep.
func (l *lines) prompt() {
	g := l.g
	s := g.State()
	if g.Over() || g.AutoToAct() || s.Step != engine.StepChoose {
		return
	}
	var opts []string
	if s.CanThrow() {
		n := s.ToThrow()
		if s.Left == 0 {
			opts = append(opts, fmt.Sprintf("roll %d dice (hot dice)", n))
		} else {
			opts = append(opts, fmt.Sprintf("roll %d %s", n, plural(n, "die", "dice")))
		}
	}
	ok, why := s.CanBank()
	if ok {
		opts = append(opts, fmt.Sprintf("bank %d", s.Total))
	}
	line := "choose: " + strings.Join(opts, " or ")
	if !ok {
		line += " (no bank: " + why + ")"
	}
	l.say("%s", line)
}

// soloCount is the turn counter of a game of one for its turn line:
// ", turn 7" (see soloTurn); "" with more players.
func soloCount(s engine.State) string {
	if len(s.Players) != 1 {
		return ""
	}
	return ", " + soloTurn(s)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// command runs one line of input and reports whether the player quits.
func (l *lines) command(line string) (quit bool) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		l.remind()
		return false
	}
	g := l.g
	s := g.State()
	me := s.Actor()
	var act engine.Action
	switch cmd := strings.ToLower(fields[0]); cmd {
	case "quit", "q", "exit":
		return true
	case "help", "h?", "?":
		l.help()
		return false
	case "score", "s":
		l.score()
		return false
	case "hint", "h":
		l.hint()
		return false
	case "roll", "r", "throw":
		act = engine.ThrowBy(me)
	case "bank", "b":
		act = engine.BankBy(me)
	case "keep", "k":
		arg := strings.Join(fields[1:], " ")
		if arg == "" {
			l.say("error: keep which dice? e.g. keep 1 5 (the dice of the throw %s)", s.Throw)
			return false
		}
		k, err := dice.Parse(arg)
		if err != nil {
			l.say("error: keep %s: %s", arg, Reason(err))
			return false
		}
		act = engine.KeepBy(me, k)
	default:
		l.say("error: unknown command %q (commands: %s)", fields[0], lineCommands)
		return false
	}
	if len(fields) > 1 && act.Kind != engine.Keep {
		l.say("error: %s takes no arguments", fields[0])
		return false
	}
	ev, err := g.Do(act)
	if err != nil {
		l.say("error: %s", Reason(err))
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
		eg = fmt.Sprintf(" (the most: keep %s)", adv.Choices[0].Keep)
	}
	l.say("choose: keep scoring dice of %s%s; hint values them, help lists the commands", s.Throw, eg)
}

func (l *lines) help() {
	l.say("help: commands: %s", lineCommands)
	l.say("help: keep sets aside scoring dice of the last throw; roll throws the rest; bank adds the turn total to your score.")
	for _, line := range RulesText(l.g.Rules(), 100) {
		l.say("help: %s", line)
	}
}

func (l *lines) score() {
	g := l.g
	s := g.State()
	r := g.Rules()
	for i, p := range s.Players {
		line := fmt.Sprintf("score: %s %d", p.Name, p.Score)
		if i == s.Current && !s.Over() && s.Phase == engine.PhasePlay {
			line += ", to play"
		}
		if p.Score == 0 && r.Turn.EntryMinimum > 0 {
			line += fmt.Sprintf(", not on the board (needs %d)", r.Turn.EntryMinimum)
		}
		if p.Streak > 0 {
			line += fmt.Sprintf(", %d %s in a row", p.Streak, plural(p.Streak, "farkle", "farkles"))
		}
		l.say("%s", line)
	}
	line := fmt.Sprintf("score: target %d", r.Game.Target)
	switch {
	case s.Phase != engine.PhasePlay || s.Over():
	case s.Step == engine.StepKeep:
		line += fmt.Sprintf(", turn total %d, throw to keep from: %s", s.Total, s.Throw)
	default:
		line += fmt.Sprintf(", turn total %d, %d %s to throw", s.Total, s.ToThrow(), plural(s.ToThrow(), "die", "dice"))
	}
	if s.FinalRound {
		line += fmt.Sprintf(", final round (started by %s)", s.Players[s.Trigger].Name)
	}
	l.say("%s", line)
}

func (l *lines) hint() {
	if _, quick := l.adv.(PointsAdvisor); !quick && !l.hinted {
		l.say("hint: thinking (the first hint under these rules may solve the game: minutes, then cached)")
		l.w.Flush()
	}
	l.hinted = true
	adv, err := l.adv.Advise(l.g.State())
	if err != nil {
		l.say("error: hint: %s", err)
		return
	}
	if adv.Note != "" {
		l.say("hint: %s", adv.Note)
	}
	for _, c := range adv.Choices {
		line := fmt.Sprintf("hint: %s: %s %s", c.Label(), adv.Format(c.Value), adv.Measure)
		switch {
		case math.IsNaN(c.Value):
			line = fmt.Sprintf("hint: %s: %s", c.Label(), c.Note)
		case c.Note != "":
			line += " (" + c.Note + ")"
		}
		l.say("%s", line)
	}
}

// saved saves the game and says where, or why not.
func (l *lines) saved() {
	saveAndSay(l.g, l.say)
}
