package tui

import (
	"fmt"
	"strings"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/rules"
)

// RulesText returns the rules in force as lines of at most width columns
// (at least 40): the turn and game rules and the scoring table of r, built
// from dice.Melds so that it is the table of these rules and no other.
func RulesText(r rules.Rules, width int) []string {
	width = max(width, 40)
	var out []string
	add := func(format string, args ...any) {
		out = append(out, wrap(fmt.Sprintf(format, args...), width, "    ")...)
	}
	g, t, s := r.Game, r.Turn, r.Scoring
	add("Rules: %s, %d dice", r.Name, r.Dice)
	end := "then everyone else has one more turn and the highest score wins"
	if g.Ending == rules.EndImmediate {
		end = "the first to bank that many wins at once"
	}
	add("  Target: %d; %s.", g.Target, end)
	if g.MaxTurns > 0 {
		add("  Limit: after %d turns each the game ends and the highest score wins.", g.MaxTurns)
	}
	add("  Players: %d to %d; first player: %s; ties: %s.", g.MinPlayers, g.MaxPlayers, g.FirstPlayer, tieText(g.Tie))
	if g.NextFirst == rules.NextWinner {
		add("  Playing again: the winner starts the next game.")
	}
	add("  A turn: throw, keep at least one scoring die from that throw, then throw the rest or bank. A throw with nothing to keep is a farkle: the turn total is lost.")
	if t.HotDice {
		add("  Hot dice: keep all the dice and you may throw all %d again.", r.Dice)
	} else {
		add("  No hot dice: once every die is kept, you must bank.")
	}
	if t.EntryMinimum > 0 {
		add("  Getting on the board: while your score is 0 you bank only %d or more.", t.EntryMinimum)
	}
	if t.BankMinimum > 0 {
		add("  Bank minimum: a turn total below %d cannot be banked.", t.BankMinimum)
	}
	if p := t.FarklePenalty; p.Count > 0 {
		add("  Farkle penalty: %d farkles in a row cost %d points (never below 0).", p.Count, p.Points)
	}
	if s.SixDiceNothing > 0 {
		add("  Six dice that score nothing: +%d, and throw six again.", s.SixDiceNothing)
	}
	out = append(out, "", "Scoring (melds count only within one throw):")
	for _, row := range meldRows(dice.Melds(r)) {
		head := fmt.Sprintf("  %-16s ", row.head)
		for i, line := range wrapTokens(row.body, width-len(head)) {
			if i > 0 {
				head = strings.Repeat(" ", len(head))
			}
			out = append(out, head+line)
		}
	}
	return out
}

func tieText(tie string) string {
	if tie == rules.Share {
		return "the win is shared"
	}
	return "the tied players roll off"
}

// meldRows groups the melds into rows: a family of melds that differ only
// in the face ("three 1s", "three 2s", ...) shares one row.
func meldRows(melds []dice.Meld) []meldRow {
	type family struct {
		label  string
		faces  []string // "1s: 1000"
		points map[int]bool
		hands  []dice.Hand
		quad   bool // some member holds four of a face (three pairs with a quad)
	}
	var order []*family
	byKey := map[string]*family{}
	for _, m := range melds {
		key, face := familyKey(m.Name)
		f := byKey[key]
		if f == nil {
			f = &family{label: familyLabel(key), points: map[int]bool{}}
			byKey[key] = f
			order = append(order, f)
		}
		f.points[m.Points] = true
		f.hands = append(f.hands, m.Hand)
		if face != "" {
			f.faces = append(f.faces, fmt.Sprintf("%s=%d", face, m.Points))
		}
		for v := 1; v <= 6; v++ {
			if m.Hand.Count(v) == 4 && m.Hand.N() == 6 {
				f.quad = true
			}
		}
	}
	var rows []meldRow
	for _, f := range order {
		row := meldRow{head: f.label}
		switch {
		case len(f.faces) == 6 && len(f.points) == 1:
			for p := range f.points {
				row.body = []string{fmt.Sprintf("%d (any face)", p)}
			}
		case len(f.faces) > 0:
			row.body = f.faces
		case len(f.points) == 1:
			for p := range f.points {
				row.body = []string{fmt.Sprint(p)}
				if len(f.hands) == 1 {
					row.body = append(row.body, "("+f.hands[0].String()+")")
				} else if f.quad {
					row.body = append(row.body, "(four of a kind and a pair count too)")
				}
			}
		default:
			for _, h := range f.hands {
				p, _ := meldPoints(melds, h)
				row.body = append(row.body, fmt.Sprintf("%s: %d", h, p))
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// meldRow is one line of the scoring table: a label and the tokens after
// it, which wrapping never splits.
type meldRow struct {
	head string
	body []string
}

// meldPoints returns the points of the meld with hand h.
func meldPoints(melds []dice.Meld, h dice.Hand) (int, bool) {
	for _, m := range melds {
		if m.Hand == h {
			return m.Points, true
		}
	}
	return 0, false
}

// wrapTokens joins tokens with two spaces into lines of at most width
// columns, never splitting a token.
func wrapTokens(tokens []string, width int) []string {
	var lines []string
	line := ""
	for _, t := range tokens {
		switch {
		case line == "":
			line = t
		case len([]rune(line))+2+len([]rune(t)) <= width:
			line += "  " + t
		default:
			lines = append(lines, line)
			line = t
		}
	}
	return append(lines, line)
}

// familyKey returns the meld name with its face replaced by '#' ("three
// 2s" -> "three #s") and the face part ("2s"), or the name and "".
func familyKey(name string) (key, face string) {
	fields := strings.Fields(name)
	for i, f := range fields {
		if len(f) >= 1 && f[0] >= '1' && f[0] <= '6' && (len(f) == 1 || f[1:] == "s") {
			face = f
			fields[i] = "#" + f[1:]
			return strings.Join(fields, " "), face
		}
	}
	return name, ""
}

func familyLabel(key string) string {
	switch key {
	case "single #":
		return "single die"
	}
	if w, ok := strings.CutSuffix(key, " #s"); ok {
		return w + " of a kind"
	}
	return strings.TrimPrefix(key, "a ")
}

// wrap breaks s into lines of at most width columns at spaces; lines after
// the first start with indent.
func wrap(s string, width int, indent string) []string {
	words := strings.Split(s, " ")
	var lines []string
	line := ""
	lead := ""
	for i := 0; i < len(s) && s[i] == ' '; i++ {
		lead += " "
	}
	line = lead
	for _, w := range words {
		if w == "" {
			continue
		}
		switch {
		case strings.TrimSpace(line) == "":
			line += w
		case len([]rune(line))+1+len([]rune(w)) <= width:
			line += " " + w
		default:
			lines = append(lines, line)
			line = indent + w
		}
	}
	return append(lines, line)
}
