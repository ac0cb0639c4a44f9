package tui

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/dragon"
	"github.com/farkle/farkle/lang"
)

// dragonLineCommands is the command summary of Dragon Farkle's line mode
// in the language of c: the commands are English words in every language,
// the example of a keep is said in c's.
func dragonLineCommands(c *lang.Catalogue) string {
	return "recruit, brawl NAME, battle, hire, dismiss CARD, keep DICE " + orEnglish(c).Msg("dragon.lines.keepExample") +
		", roll, stop, retreat, accept, use CARD [FACE], pass, discard CARD, hand, score, hint, help, quit"
}

// RunDragonLines plays g as lines of text, as RunLines does for ordinary
// Farkle. It reads one command a line from in: recruit, brawl NAME,
// battle, hire, dismiss CARD, keep DICE [double|item], roll, stop,
// retreat, accept, use CARD [FACE], pass (a brawl throw), discard CARD,
// hand, score, hint, help, quit. A defender whose brawl throw waits for
// a card decision is asked on the challenger's turn. It writes one line
// per event to out: "turn: ana (round 2, 1200 soldiers)" when a turn
// starts, "throw: 1 1 3 4 5 6 event: rally" after every throw of a person,
// "choose: ..." with the commands a person may give now, each bot action
// as a sentence, "error: ..." for a command that is refused (nothing
// changes), and at the end "winner: ana (slew the dragon)". With one
// person at the table their Magic Items are named to them ("hand: ...");
// with several, items show only on the hand command. At quit, at the end
// of input or when ctx is done the game is saved and "saved: FILE" is
// printed. The error is that of writing or reading.
func RunDragonLines(ctx context.Context, g *DragonGame, in io.Reader, out io.Writer) error {
	return RunDragonLinesIn(ctx, nil, g, in, out)
}

// RunDragonLinesIn is RunDragonLines in the language of c (nil: English).
// The command words stay the English ones in every language.
func RunDragonLinesIn(ctx context.Context, c *lang.Catalogue, g *DragonGame, in io.Reader, out io.Writer) error {
	w := bufio.NewWriter(out)
	l := &dragonLines{g: g, w: w, c: orEnglish(c)}
	l.intro()
	return lineLoop(ctx, in, w, l, g.Over, func() string { return g.WinnersIn(l.cat()) })
}

type dragonLines struct {
	g *DragonGame
	w *bufio.Writer
	c *lang.Catalogue
	// brawling is the game's mode was Brawling before the server's last
	// update (at a server: a new brawl is announced as it starts).
	brawling bool
}

// deciding reports whether the person at this keyboard is to act now: a
// person of a local game whose turn it is, or at a server this
// terminal's seat once nothing waits for the server.
func (l *dragonLines) deciding() bool {
	g := l.g
	if g.Over() || g.BotToAct() {
		return false
	}
	o := g.online
	return o == nil || g.ToAct() == o.you && o.idle()
}

// seat is the seat whose cards and choices the lines speak of: the
// person to act, or at a server this terminal's seat (-1 watching).
func (l *dragonLines) seat() int {
	if o := l.g.online; o != nil {
		return o.you
	}
	return l.g.ToAct()
}

// waiting reports whether a game at a server waits for another seat or
// for the server, and then says so.
func (l *dragonLines) waiting() bool {
	g := l.g
	if g.online == nil || g.Over() || l.deciding() {
		return false
	}
	l.say("%s", waitingLineIn(l.cat(), g.online, g.Names(), g.ToAct()))
	return true
}

// person reports whether seat is a person whose throws are theirs to
// read ("throw: ..."): a person of a local game, or at a server this
// terminal's seat (the others' throws are told as sentences).
func (l *dragonLines) person(seat int) bool {
	if o := l.g.online; o != nil {
		return seat == o.you
	}
	seats := l.g.Seats()
	return seat >= 0 && seat < len(seats) && !seats[seat].IsBot()
}

func (l *dragonLines) say(format string, args ...any) {
	sayTo(l.w, format, args...)
}

// errf is an error with the catalogue's text of key.
func (l *dragonLines) errf(key string, kv ...any) error { return errors.New(l.cat().Msg(key, kv...)) }

// cat is the language of the lines (nil: English).
func (l *dragonLines) cat() *lang.Catalogue { return orEnglish(l.c) }

// choose says the choices of the person to act, "choose: a | b".
func (l *dragonLines) choose(choices []string) {
	l.say("%s", l.cat().Msg("dragon.lines.choose", "choices", strings.Join(choices, " | ")))
}

// face names an event face as the line mode writes it: "rally".
func (l *dragonLines) face(f dragon.EventFace) string {
	if k := "dragon.lines.face." + f.String(); l.cat().Has(k) {
		return l.cat().Msg(k)
	}
	return f.String()
}

// grammar fixes an English line for a player called "you".
func (l *dragonLines) grammar(line string, names []string) string {
	if l.cat().Code == lang.Default {
		return youGrammar(line, names)
	}
	return line
}

// cardName and cardText are a card's words in the language of the lines.
func (l *dragonLines) cardName(id, name string) string { return dragon.CardName(l.cat(), id, name) }
func (l *dragonLines) cardText(id, text string) string { return dragon.CardText(l.cat(), id, text) }

// viewer is the seat whose hidden cards may be printed: the only person at
// the table (at a server, this terminal's seat), else nobody.
func (l *dragonLines) viewer() int {
	if o := l.g.online; o != nil {
		if o.you < 0 {
			return dragon.Spectator
		}
		return o.you
	}
	if h := l.g.Humans(); len(h) == 1 {
		return h[0]
	}
	return dragon.Spectator
}

func (l *dragonLines) intro() {
	g := l.g
	r := g.Game().Rules()
	who := seatNamesIn(l.cat(), g.Seats())
	l.say("%s", l.cat().Msg("dragon.lines.intro", "rules", r.Name, "health", r.DragonHealth, "min", r.BattleMinimum, "players", strings.Join(who, ", ")))
	l.say("%s", l.cat().Msg("dragon.lines.commands", "commands", dragonLineCommands(l.cat())))
	s := g.State()
	if len(g.Record().Actions) > 0 && g.Path() != "" {
		l.say("%s", l.cat().Msg("dragon.lines.resumed", "file", g.Path()))
	}
	l.say("%s", l.cat().Msg("dragon.lines.turn", "p", s.Players[s.Turn].Name, "round", s.Round, "n", s.Players[s.Turn].Soldiers))
	if (s.Phase == dragon.PhaseKeep || s.Phase == dragon.PhaseEvaded) && l.deciding() {
		l.say("%s", l.cat().Msg("dragon.lines.throw", "dice", s.Throw.String(), "face", l.face(s.Event)))
	}
	l.advance()
}

// advance lets the bots play until a person must decide or the game is
// over, printing what happens, then says what the person may do.
func (l *dragonLines) advance() {
	g := l.g
	for g.BotToAct() {
		a, ev, err := g.Auto()
		if err != nil {
			l.say("%s", l.cat().Msg("dragon.lines.error", "why", l.g.reasonIn(l.cat(), err)))
			return
		}
		l.played(a, ev)
	}
	l.prompt()
}

// played prints what the action a did: a line per event, after a line
// announcing a brawl.
func (l *dragonLines) played(a dragon.Action, ev []dragon.Event) {
	if a.Kind == dragon.ActBrawl && len(ev) > 0 {
		names := l.g.Names()
		l.say("%s", l.grammar(l.cat().Msg("dragon.lines.challenges", "p", names[ev[0].Seat], "q", names[a.Target]), names))
	}
	_, settled := dragonEvent(ev, dragon.EvBrawl)
	l.events(ev, settled || l.g.State().Mode == dragon.Brawling)
}

// events prints one line per event; brawl says they are a brawl's.
func (l *dragonLines) events(ev []dragon.Event, brawl bool) {
	g := l.g
	s := g.State()
	for i, line := range g.DescribeIn(l.cat(), ev, l.viewer()) {
		e := ev[i]
		person := l.person(e.Seat)
		switch {
		case e.Kind == dragon.EvTurn:
			l.say("%s", l.cat().Msg("dragon.lines.turn", "p", s.Players[e.Seat].Name, "round", e.Round, "n", s.Players[e.Seat].Soldiers))
		case e.Kind == dragon.EvThrow && person:
			var notes []string
			if len(g.Humans()) > 1 || brawl {
				notes = append(notes, s.Players[e.Seat].Name)
			}
			if brawl {
				notes = append(notes, l.cat().Msg("dragon.lines.brawlScore", "n", e.N))
			}
			extra := ""
			if len(notes) > 0 {
				extra = " (" + strings.Join(notes, ", ") + ")"
			}
			l.say("%s%s", l.cat().Msg("dragon.lines.throw", "dice", e.Dice.String(), "face", l.face(e.Face)), extra)
		case e.Kind == dragon.EvWin:
			// RunDragonLines prints the winner line.
		default:
			l.say("%s", line)
		}
	}
}

// prompt says what the person to act may do now.
func (l *dragonLines) prompt() {
	g := l.g
	if !l.deciding() {
		return
	}
	v := g.View(g.ToAct())
	me := v.Players[v.Seat]
	names := g.Names()
	var cmds []string
	var uses []string
	hasKeep := false
	for _, a := range v.Legal {
		switch a.Kind {
		case dragon.ActKeep:
			hasKeep = true
		case dragon.ActUse:
			u := dragonCommand(a, names)
			if a.Face != 0 {
				u = "use " + a.Card + " FACE"
			}
			if len(uses) == 0 || uses[len(uses)-1] != u {
				uses = append(uses, u)
			}
		case dragon.ActHire:
			cmds = append(cmds, l.cat().Msg("dragon.lines.hire", "n", v.HireCost))
		default:
			cmds = append(cmds, dragonCommand(a, names))
		}
	}
	switch v.Phase {
	case dragon.PhaseBrawl:
		l.say("%s", l.grammar(brawlSituation(l.cat(), v, names), names))
		l.choose(append(uses, l.cat().Msg("dragon.lines.pass", "n", v.BrawlScore)))
	case dragon.PhaseHire:
		own, offer := me.Companion, v.Offer
		l.say("%s", l.cat().Msg("dragon.lines.hireYours", "card", l.cardName(own.ID, own.Name), "id", own.ID, "text", l.cardText(own.ID, own.Text)))
		l.say("%s", l.cat().Msg("dragon.lines.hireHired", "card", l.cardName(offer.ID, offer.Name), "id", offer.ID, "text", l.cardText(offer.ID, offer.Text)))
		l.choose([]string{l.cat().Msg("dragon.lines.dismissKeep", "id", own.ID, "card", l.cardName(offer.ID, offer.Name)), l.cat().Msg("dragon.lines.dismissKeep", "id", offer.ID, "card", l.cardName(own.ID, own.Name))})
	case dragon.PhaseChoose:
		if len(l.g.Humans()) == 1 || l.g.online != nil {
			l.hand()
		}
		line := l.cat().Msg("dragon.lines.choose", "choices", strings.Join(cmds, " | "))
		if me.Soldiers < g.Game().Rules().BattleMinimum {
			line += l.cat().Msg("dragon.lines.battleNeeds", "min", g.Game().Rules().BattleMinimum, "n", me.Soldiers)
		}
		l.say("%s", line)
	case dragon.PhaseKeep:
		var parts []string
		if hasKeep {
			switch {
			case v.Mode == dragon.Battling:
				parts = append(parts, l.cat().Msg("dragon.lines.keepBattle", "dice", v.Throw.String(), "n", me.Soldiers, "damage", v.Damage, "health", v.DragonHealth))
			case v.Event == dragon.Dragon:
				for _, a := range v.Legal {
					if a.Kind == dragon.ActKeep {
						parts = append(parts, dragonCommand(a, names)+l.cat().Msg("dragon.lines.keepDragon"))
						break
					}
				}
			case v.Event == dragon.Rally:
				parts = append(parts, l.cat().Msg("dragon.lines.keepRally", "dice", v.Throw.String()))
			default:
				parts = append(parts, l.cat().Msg("dragon.lines.keep", "dice", v.Throw.String(), "most", l.mostKeep(v)))
			}
		}
		parts = append(parts, uses...)
		parts = append(parts, cmds...) // accept
		l.choose(parts)
	case dragon.PhaseEvaded:
		l.say("%s", l.cat().Msg("dragon.lines.evaded", "dice", l.cat().Msg("dragon.lines.dice", "n", v.Dice), "pool", v.Pool))
	case dragon.PhaseRoll:
		what := l.cat().Msg("dragon.lines.dice", "n", v.Dice)
		if v.Kept == 0 && v.Dice == 6 && (v.Pool > 0 || v.Mode == dragon.Battling) {
			what = l.cat().Msg("dragon.lines.hotDice")
		}
		if v.Mode == dragon.Battling {
			l.say("%s", l.cat().Msg("dragon.lines.rollRetreat", "dice", what, "n", me.Soldiers, "damage", v.Damage, "health", v.DragonHealth))
		} else {
			l.say("%s", l.cat().Msg("dragon.lines.rollStop", "dice", what, "pool", v.Pool))
		}
	case dragon.PhaseDiscard:
		l.say("%s", l.cat().Msg("dragon.lines.discard", "choices", strings.Join(cmds, " | "), "n", me.ItemCount, "limit", me.ItemLimit))
	}
	if clock := clockLineIn(l.cat(), g.online, names); clock != "" {
		l.say("%s", clock)
	}
}

// mostKeep names the legal keep of v worth the most soldiers, card
// bonuses included (the game's own figure), e.g. "1 1 1 for 1000".
func (l *dragonLines) mostKeep(v dragon.View) string {
	best, most := dice.Hand(0), -1
	for _, kv := range v.KeepValues {
		if kv.Soldiers > most {
			best, most = kv.Dice, kv.Soldiers
		}
	}
	return l.cat().Msg("dragon.lines.most", "dice", best.String(), "n", most)
}

// hand prints the cards of the person to act (at a server: of this
// terminal's seat).
func (l *dragonLines) hand() {
	g := l.g
	v := g.View(l.seat())
	me := v.Players[v.Seat]
	if c := me.Companion; c != nil {
		l.say("%s", l.cat().Msg("dragon.lines.handCompanion", "card", l.cardName(c.ID, c.Name), "id", c.ID, "text", l.cardText(c.ID, c.Text)))
	}
	if len(me.Items) == 0 {
		l.say("%s", l.cat().Msg("dragon.lines.handNone"))
	}
	for _, c := range me.Items {
		l.say("%s", l.cat().Msg("dragon.lines.handItem", "card", l.cardName(c.ID, c.Name), "id", c.ID, "text", l.cardText(c.ID, c.Text)))
	}
	for _, c := range v.Drawn {
		l.say("%s", l.cat().Msg("dragon.lines.handDrawn", "card", l.cardName(c.ID, c.Name), "id", c.ID, "text", l.cardText(c.ID, c.Text)))
	}
}

// command runs one line of input and reports whether the player quits.
func (l *dragonLines) command(line string) (quit bool) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		l.prompt() // an empty line: what the game waits for
		return false
	}
	g := l.g
	cmd, args := strings.ToLower(fields[0]), fields[1:]
	switch cmd {
	case "quit", "q", "exit":
		return true
	case "help", "?":
		l.help()
		return false
	case "score":
		l.score()
		return false
	case "hint", "h":
		if !l.waiting() {
			l.hint()
		}
		return false
	case "hand":
		if g.Over() || g.BotToAct() || l.seat() < 0 {
			l.say("%s", l.cat().Msg("dragon.lines.error", "why", l.cat().Msg("dragon.lines.err.hand")))
			return false
		}
		l.hand()
		return false
	}
	if l.waiting() {
		return false
	}
	a, err := l.parse(cmd, args)
	if err != nil {
		l.say("%s", l.cat().Msg("dragon.lines.error", "why", err.Error()))
		return false
	}
	if g.online != nil {
		l.send(a)
		return false
	}
	ev, err := g.Do(a)
	if err != nil {
		l.say("%s", l.cat().Msg("dragon.lines.error", "why", l.g.reasonIn(l.cat(), err)))
		return false
	}
	l.played(a, ev)
	l.advance()
	return false
}

// parse turns a command into an action of the person to act.
func (l *dragonLines) parse(cmd string, args []string) (dragon.Action, error) {
	g := l.g
	noArgs := func(a dragon.Action) (dragon.Action, error) {
		if len(args) > 0 {
			return a, l.errf("dragon.lines.err.noArgs", "cmd", cmd)
		}
		return a, nil
	}
	switch cmd {
	case "recruit":
		return noArgs(dragon.Recruit())
	case "battle", "attack":
		return noArgs(dragon.Battle())
	case "roll", "r", "throw":
		return noArgs(dragon.Roll())
	case "stop", "s", "bank":
		return noArgs(dragon.Stop())
	case "retreat":
		return noArgs(dragon.Retreat())
	case "accept":
		return noArgs(dragon.Accept())
	case "pass":
		return noArgs(dragon.Pass())
	case "hire":
		return noArgs(dragon.Hire())
	case "dismiss":
		return l.dismiss(args)
	case "brawl":
		return l.brawl(args)
	case "keep", "k":
		return l.keep(args)
	case "use":
		if len(args) == 0 {
			return dragon.Action{}, l.errf("dragon.lines.err.useWhich", "cards", l.cardList(true))
		}
		id, err := l.card(args[0], true)
		if err != nil {
			return dragon.Action{}, err
		}
		face := 0
		if len(args) > 1 {
			if face, err = strconv.Atoi(args[1]); err != nil || face < 1 || face > 6 {
				return dragon.Action{}, l.errf("dragon.lines.err.face", "card", args[0], "face", args[1])
			}
		}
		if len(args) > 2 {
			return dragon.Action{}, l.errf("dragon.lines.err.useArgs")
		}
		if face == 0 {
			var faces []string
			for _, a := range g.View(g.ToAct()).Legal {
				if a.Kind == dragon.ActUse && a.Card == id && a.Face != 0 {
					faces = append(faces, strconv.Itoa(a.Face))
				}
			}
			if len(faces) > 0 {
				return dragon.Action{}, l.errf("dragon.lines.err.whichDie", "card", id, "faces", strings.Join(faces, ", "))
			}
		}
		return dragon.Use(id, face), nil
	case "discard":
		if len(args) != 1 {
			return dragon.Action{}, l.errf("dragon.lines.err.discardWhich", "cards", l.cardList(false))
		}
		id, err := l.card(args[0], false)
		if err != nil {
			return dragon.Action{}, err
		}
		return dragon.Discard(id), nil
	}
	return dragon.Action{}, l.errf("dragon.lines.err.unknown", "cmd", strconv.Quote(cmd), "commands", dragonLineCommands(l.cat()))
}

// dismiss finds the Companion named by args (id, name, or the start of
// either) among the one held and the one hired.
func (l *dragonLines) dismiss(args []string) (dragon.Action, error) {
	v := l.g.View(l.g.ToAct())
	if v.Phase != dragon.PhaseHire || v.Offer == nil {
		return dragon.Action{}, l.errf("dragon.lines.err.dismissNow")
	}
	cs := []*dragon.CardView{v.Players[v.Seat].Companion, v.Offer}
	if len(args) == 0 {
		return dragon.Action{}, l.errf("dragon.lines.err.dismissWhich", "a", cs[0].ID, "b", cs[1].ID)
	}
	want := strings.ToLower(strings.Join(args, " "))
	var found []string
	for _, c := range cs {
		if c.ID == want || strings.ToLower(c.Name) == want {
			return dragon.Dismiss(c.ID), nil
		}
		if strings.HasPrefix(c.ID, want) || strings.HasPrefix(strings.ToLower(c.Name), want) {
			found = append(found, c.ID)
		}
	}
	if len(found) == 1 {
		return dragon.Dismiss(found[0]), nil
	}
	return dragon.Action{}, l.errf("dragon.lines.err.dismissName", "want", want, "a", cs[0].ID, "b", cs[1].ID)
}

func (l *dragonLines) brawl(args []string) (dragon.Action, error) {
	g := l.g
	s := g.State()
	var others []string
	for i, p := range s.Players {
		if i != s.Turn {
			others = append(others, p.Name)
		}
	}
	if len(args) == 0 {
		if len(others) == 1 {
			for i := range s.Players {
				if i != s.Turn {
					return dragon.Brawl(i), nil
				}
			}
		}
		return dragon.Action{}, l.errf("dragon.lines.err.brawlWhom", "others", strings.Join(others, ", "))
	}
	name := strings.Join(args, " ")
	for i, p := range s.Players {
		if strings.EqualFold(p.Name, name) {
			if i == s.Turn {
				return dragon.Action{}, l.errf("dragon.lines.err.brawlSelf", "others", strings.Join(others, ", "))
			}
			return dragon.Brawl(i), nil
		}
	}
	return dragon.Action{}, l.errf("dragon.lines.err.noPlayer", "name", strconv.Quote(name), "others", strings.Join(others, ", "))
}

func (l *dragonLines) keep(args []string) (dragon.Action, error) {
	reward := dragon.NoReward
	if n := len(args); n > 0 {
		switch strings.ToLower(args[n-1]) {
		case "double":
			reward, args = dragon.Double, args[:n-1]
		case "item":
			reward, args = dragon.DrawItem, args[:n-1]
		}
	}
	v := l.g.View(l.g.ToAct())
	arg := strings.Join(args, " ")
	if arg == "" {
		return dragon.Action{}, l.errf("dragon.lines.err.keepWhich", "dice", v.Throw.String())
	}
	k, err := dice.Parse(arg)
	if err != nil {
		return dragon.Action{}, l.errf("dragon.lines.err.keep", "dice", arg, "why", Reason(err))
	}
	if v.Phase == dragon.PhaseKeep && v.Mode == dragon.Recruiting && v.Event == dragon.Rally && reward == dragon.NoReward && len(v.Legal) > 0 {
		for _, a := range v.Legal {
			if a.Kind == dragon.ActKeep {
				return dragon.Action{}, l.errf("dragon.lines.err.reward", "dice", k.String())
			}
		}
	}
	if reward != dragon.NoReward && !(v.Mode == dragon.Recruiting && v.Event == dragon.Rally) {
		return dragon.Action{}, l.errf("dragon.lines.err.noReward", "dice", k.String(), "reward", reward)
	}
	return dragon.KeepRally(k, reward), nil
}

// card finds the card named by text (its id, its name, or the start of
// either) among the cards usable now (use) or the items held (discard).
func (l *dragonLines) card(text string, use bool) (string, error) {
	ids := l.cardIDs(use)
	want := strings.ToLower(text)
	var found []string
	for _, id := range ids {
		c := l.g.Game().Cards().Card(id)
		name := id
		if c != nil {
			name = strings.ToLower(c.Name)
		}
		if id == want || name == want {
			return id, nil
		}
		if strings.HasPrefix(id, want) || strings.HasPrefix(name, want) {
			found = append(found, id)
		}
	}
	if len(found) == 1 {
		return found[0], nil
	}
	what := "use"
	if !use {
		what = "discard"
	}
	if len(ids) == 0 {
		return "", l.errf("dragon.lines.err.noCard", "cmd", what, "card", text)
	}
	return "", l.errf("dragon.lines.err.noSuchCard", "cmd", what, "card", text, "cards", l.cardList(use))
}

// cardIDs returns the cards usable now (use) or the items held.
func (l *dragonLines) cardIDs(use bool) []string {
	g := l.g
	if g.Over() || g.BotToAct() || l.seat() < 0 {
		return nil
	}
	v := g.View(l.seat())
	var ids []string
	if use {
		for _, a := range v.Legal {
			if a.Kind == dragon.ActUse && (len(ids) == 0 || ids[len(ids)-1] != a.Card) {
				ids = append(ids, a.Card)
			}
		}
		return ids
	}
	for _, c := range v.Players[v.Seat].Items {
		ids = append(ids, c.ID)
	}
	return ids
}

func (l *dragonLines) cardList(use bool) string {
	ids := l.cardIDs(use)
	if len(ids) == 0 {
		return l.cat().Msg("dragon.lines.noneNow")
	}
	return strings.Join(ids, ", ")
}

func (l *dragonLines) help() {
	l.say("%s", l.cat().Msg("tui.lines.helpLine", "line", l.cat().Msg("dragon.lines.commands", "commands", dragonLineCommands(l.cat()))))
	for _, line := range DragonRulesTextIn(l.cat(), l.g.Game(), 100) {
		l.say("%s", l.cat().Msg("tui.lines.helpLine", "line", line))
	}
}

func (l *dragonLines) score() {
	g := l.g
	v := g.View(l.viewer())
	for i, p := range v.Players {
		line := l.cat().Msg("dragon.lines.score", "p", p.Name, "n", p.Soldiers)
		if p.Companion != nil {
			line += l.cat().Msg("dragon.lines.scoreCompanion", "card", l.cardName(p.Companion.ID, p.Companion.Name))
		}
		line += l.cat().Msg("dragon.lines.scoreItems", "n", p.ItemCount)
		if i == v.Turn && !g.Over() {
			line += l.cat().Msg("dragon.lines.toPlay")
		}
		l.say("%s", line)
	}
	line := l.cat().Msg("dragon.lines.scoreRound", "round", v.Round, "damage", v.Damage, "health", v.DragonHealth)
	todo := l.cat().Msg("dragon.lines.toThrow", "n", v.Dice)
	if v.Phase == dragon.PhaseKeep {
		todo = l.cat().Msg("dragon.lines.toKeep", "dice", v.Throw.String(), "face", l.face(v.Event))
	}
	switch {
	case g.Over():
	case v.Mode == dragon.Recruiting:
		line += l.cat().Msg("dragon.lines.scoreRecruiting", "pool", v.Pool, "todo", todo)
	case v.Mode == dragon.Battling:
		line += l.cat().Msg("dragon.lines.scoreBattle", "todo", todo)
	}
	l.say("%s", line)
}

func (l *dragonLines) hint() {
	g := l.g
	if !l.deciding() {
		l.say("%s", l.cat().Msg("dragon.lines.noHint"))
		return
	}
	for _, line := range dragonHintLines(l.cat(), g, g.View(g.ToAct()), false, false) {
		l.say("%s", l.cat().Msg("tui.lines.hint", "text", line))
	}
}

// dragonHintLines returns the hint for view v: the value of every legal
// action the bots' tables can value, best first, each keep with what to do
// after it (stop or throw on), then the Final Battle odds with the
// player's soldiers and what the values are. With words the actions are
// said in the language of c, else as the line mode's commands; with keys
// a keep names the key that keeps and then does it ("(s)").
func dragonHintLines(c *lang.Catalogue, g *DragonGame, v dragon.View, words, keys bool) []string {
	c = orEnglish(c)
	adv := g.advice(v.Seat)
	names := g.Names()
	me := v.Players[v.Seat]
	var out []string
	for i, ch := range adv.Choices {
		mark := ""
		if i == 0 && len(adv.Choices) > 1 && adv.OneMeasure() {
			mark = c.Msg("dragon.hint.best")
		}
		a, _ := ch.Action.(dragon.Action)
		what := dragonCommand(a, names)
		if words {
			what = dragonActionWords(c, g.Game(), a, names)
		}
		key := "r"
		switch ch.Then {
		case "bank":
			what, key = c.Msg("dragon.hint.thenStop", "what", what), "s"
		case "throw":
			what = c.Msg("dragon.hint.thenThrow", "what", what)
		}
		if keys && ch.Then != "" {
			what += " (" + key + ")"
		}
		out = append(out, fmt.Sprintf("%s: %s%s", what, dragonAdviceValue(c, ch.Value, adv.MeasureOf(ch)), mark))
	}
	odds := g.Brains().Odds()
	if v.Mode != dragon.Battling {
		out = append(out, c.Msg("dragon.hint.odds", "n", me.Soldiers, "p", c.Pct(odds.Win(me.Soldiers), 1)))
	}
	if v.Mode == dragon.Battling && v.Phase == dragon.PhaseRoll {
		out = append(out, c.Msg("dragon.hint.battleNow", "damage", v.Damage, "health", v.DragonHealth, "dice", v.Dice, "p", c.Pct(odds.Value(me.Soldiers, v.Damage, v.Dice), 1)))
	}
	switch {
	case v.Phase == dragon.PhaseChoose && hasKind(v.Legal, dragon.ActBattle):
		out = append(out, c.Msg("dragon.hint.chooseNext"))
	case v.Phase == dragon.PhaseChoose:
		out = append(out, c.Msg("dragon.hint.choose"))
	case v.Phase == dragon.PhaseBrawl:
		out = append(out, c.Msg("dragon.hint.brawl"))
	case v.Mode == dragon.Battling:
		out = append(out, c.Msg("dragon.hint.battle"))
	case v.Mode == dragon.Recruiting:
		out = append(out, c.Msg("dragon.hint.recruit"))
	}
	return out
}

// saved saves the game and says where, or why not.
func (l *dragonLines) saved() {
	saveAndSayIn(l.cat(), l.g, l.say)
}
