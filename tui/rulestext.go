package tui

import (
	"fmt"
	"strings"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
)

// RulesText returns the rules in force as lines of at most width columns
// (at least 40): the turn and game rules and the scoring table of r, built
// from dice.Melds so that it is the table of these rules and no other.
func RulesText(r rules.Rules, width int) []string { return RulesTextIn(nil, r, width) }

// RulesTextIn is RulesText in the language of c (nil: English).
func RulesTextIn(c *lang.Catalogue, r rules.Rules, width int) []string {
	c = orEnglish(c)
	width = max(width, 40)
	var out []string
	add := func(key string, kv ...any) {
		out = append(out, wrap(c.Msg(key, kv...), width, "    ")...)
	}
	item := func(key string, kv ...any) {
		out = append(out, wrap("  "+c.Msg(key, kv...), width, "    ")...)
	}
	g, t, s := r.Game, r.Turn, r.Scoring
	add("rules.heading", "name", r.Name, "dice", r.Dice)
	end := c.Msg("rules.end.round")
	if g.Ending == rules.EndImmediate {
		end = c.Msg("rules.end.now")
	}
	item("rules.target", "target", g.Target, "end", end)
	if g.MaxTurns > 0 {
		item("rules.limit", "turns", g.MaxTurns)
	}
	first := c.Msg("rules.first.rollOff")
	if g.FirstPlayer == rules.SeatOrder {
		first = c.Msg("rules.first.seatOrder")
	}
	ties := c.Msg("rules.tie.rollOff")
	if g.Tie == rules.Share {
		ties = c.Msg("rules.tie.share")
	}
	item("rules.players", "min", g.MinPlayers, "max", g.MaxPlayers, "first", first, "ties", ties)
	if g.NextFirst == rules.NextWinner {
		item("rules.again")
	}
	item("rules.turn")
	if t.HotDice {
		item("rules.hot", "dice", r.Dice)
	} else {
		item("rules.noHot")
	}
	if t.EntryMinimum > 0 {
		item("rules.entry", "points", t.EntryMinimum)
	}
	if t.BankMinimum > 0 {
		item("rules.bankMin", "points", t.BankMinimum)
	}
	if p := t.FarklePenalty; p.Count > 0 {
		item("rules.penalty", "count", p.Count, "points", p.Points)
	}
	if s.SixDiceNothing > 0 {
		item("rules.sixNothing", "points", s.SixDiceNothing)
	}
	out = append(out, "", c.Msg("rules.scoring"))
	return append(out, meldTableIn(c, dice.Melds(r), width)...)
}

// meldTableIn is the scoring table of melds in the language of c, a row
// per family of melds ("three of a kind  1s: 1000 · 2s: 200 …") wrapped to
// width columns: the ordinary rules' points and Dragon Farkle's soldiers.
func meldTableIn(c *lang.Catalogue, melds []dice.Meld, width int) []string {
	var out []string
	for _, row := range meldRowsIn(c, melds) {
		head := fmt.Sprintf("  %-16s ", row.head)
		w := len([]rune(head))
		for i, line := range wrapTokens(row.body, width-w) {
			if i > 0 {
				head = strings.Repeat(" ", w)
			}
			out = append(out, head+line)
		}
	}
	return out
}

// meldRowsIn groups the melds into rows, labelled in the language of c: a
// family of melds that differ only in the face ("three 1s", "three 2s",
// ...) shares one row.
func meldRowsIn(c *lang.Catalogue, melds []dice.Meld) []meldRow {
	c = orEnglish(c)
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
			f = &family{label: familyLabel(c, key), points: map[int]bool{}}
			byKey[key] = f
			order = append(order, f)
		}
		f.points[m.Points] = true
		f.hands = append(f.hands, m.Hand)
		if face != "" {
			faceKey := "rules.face"
			if strings.HasSuffix(face, "s") {
				faceKey = "rules.faces"
			}
			f.faces = append(f.faces, c.Msg(faceKey, "face", face[:1], "points", m.Points))
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
				row.body = []string{c.Msg("rules.anyFace", "points", p)}
			}
		case len(f.faces) > 0:
			row.body = f.faces
		case len(f.points) == 1:
			for p := range f.points {
				row.body = []string{c.Num(int64(p))}
				if len(f.hands) == 1 {
					row.body = append(row.body, "("+f.hands[0].String()+")")
				} else if f.quad {
					row.body = append(row.body, c.Msg("rules.quadToo"))
				}
			}
		default:
			for _, h := range f.hands {
				p, _ := meldPoints(melds, h)
				row.body = append(row.body, c.Msg("rules.handPoints", "dice", h.String(), "points", p))
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

func familyLabel(c *lang.Catalogue, key string) string {
	if k, ok := meldLabels[key]; ok {
		return c.Msg(k)
	}
	if w, ok := strings.CutSuffix(key, " #s"); ok {
		return w + " of a kind"
	}
	return strings.TrimPrefix(key, "a ")
}

// meldLabels are the keys of the labels of the scoring table's rows, by
// family of dice.Melds' names.
var meldLabels = map[string]string{
	"single #":                  "rules.meld.single",
	"three #s":                  "rules.meld.three",
	"four #s":                   "rules.meld.four",
	"five #s":                   "rules.meld.five",
	"six #s":                    "rules.meld.six",
	"a straight":                "rules.meld.straight",
	"a small straight":          "rules.meld.smallStraight",
	"three pairs":               "rules.meld.threePairs",
	"four of a kind and a pair": "rules.meld.fourPair",
	"two triplets":              "rules.meld.twoTriplets",
}

// wrap breaks s into lines of at most width columns at spaces; lines after
// the first start with indent. A word wider than a line (a file's path)
// is broken after a slash where it can be, else where the line ends, so
// that none of it is cut off.
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
		for {
			text := strings.TrimSpace(line) != ""
			room := width - len([]rune(line))
			if text {
				room-- // the space before the word
			}
			n := len([]rune(w))
			if n <= room || text && n <= width-len([]rune(indent)) {
				break // it fits here, or on the next line
			}
			cut := pathBreak(w, room)
			switch {
			case cut == 0 && text:
				lines, line = append(lines, line), indent
				continue
			case cut == 0 && room <= 0:
				// no room even on a line of its own: as it is
			case cut == 0:
				cut = len(string([]rune(w)[:room]))
			}
			if cut == 0 {
				break
			}
			if text {
				line += " "
			}
			lines, line, w = append(lines, line+w[:cut]), indent, w[cut:]
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

// pathBreak is where to break the word w to fit room columns: the byte
// after its last slash within them; 0 for none.
func pathBreak(w string, room int) int {
	cut, n := 0, 0
	for i, r := range w {
		if n >= room {
			break
		}
		n++
		if r == '/' || r == '\\' {
			cut = i + 1
		}
	}
	if cut == len(w) {
		return 0 // the whole word: not a break
	}
	return cut
}
