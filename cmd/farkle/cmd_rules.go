package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
)

func init() {
	register(&command{
		name:    "rules",
		args:    "[--list] [--rules NAME|FILE] [--json]",
		summary: "print a preset or rule file, resolved and validated (TOML or JSON); --list lists the presets",
		run:     runRules,
	})
}

// presetSources names the rule text each preset comes from (docs/RULES.md
// section 3). Every preset must have an entry (a test checks).
var presetSources = map[string]string{
	"classic":       `"Official farkle rules"`,
	"pocket-farkel": "Pocket Farkel (Legendary Games)",
	"farkle-dice":   "Farkle Dice (Smart Box Design)",
	"cardgames":     "the two-player printable rules",
}

// presetInfo is one row of `farkle rules --list`.
type presetInfo struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Hash        string `json:"hash"`
}

func runRules(ctx context.Context, e *env, args []string) error {
	c := commands["rules"]
	fs := newFlags(e, c)
	list := fs.Bool("list", false, "list the presets with a one-line description each")
	asJSON := fs.Bool("json", false, "print JSON instead of TOML (with --list: a JSON array)")
	resolve := variantFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageMsg("cli.err.rulesArgs", "got", strconv.Quote(strings.Join(fs.Args(), " ")))
	}
	if *list {
		var infos []presetInfo
		for _, name := range rules.Presets() {
			r := rules.MustPreset(name)
			infos = append(infos, presetInfo{Name: name, Description: describe(name, r), Hash: r.Hash()})
		}
		for _, name := range game.PresetNames() {
			v, _ := game.Preset(name)
			infos = append(infos, viewOf(v.Kind()).listed(name, v))
		}
		if *asJSON {
			return emitJSON(e, infos, true)
		}
		var b strings.Builder
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "preset\tdescription")
		for _, p := range infos {
			fmt.Fprintf(tw, "%s\t%s\n", p.Name, p.Description)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		_, err := io.WriteString(e.stdout, termFitted(e, b.String())) // a description under itself on a terminal, a preset a line piped
		return err
	}
	v, err := resolve()
	if err != nil {
		return err
	}
	return viewOf(v.Kind()).printRules(e, v, *asJSON)
}

// describe returns a one-line description of a rule set: where it comes
// from and how it differs in scoring and play.
func describe(name string, r rules.Rules) string {
	s := r.Scoring
	parts := []string{fmt.Sprintf("three 1s %d", s.Triple[0])}
	switch s.KindMode {
	case rules.KindNone:
		parts = append(parts, "no 4-6 of a kind")
	case rules.KindFixed:
		parts = append(parts, fmt.Sprintf("4/5/6 of a kind %d/%d/%d", s.FourOfAKind, s.FiveOfAKind, s.SixOfAKind))
	case rules.KindMultiply:
		parts = append(parts, "4/5/6 of a kind triple ×2/×3/×4")
	case rules.KindDouble:
		parts = append(parts, "4/5/6 of a kind triple ×2/×4/×8")
	}
	opt := func(label string, v int) {
		if v > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", label, v))
		}
	}
	opt("straight", s.Straight)
	opt("small straights", max(s.SmallStraightLow, s.SmallStraightHigh))
	opt("three pairs", s.ThreePairs)
	opt("four of a kind and a pair", s.FourKindPair)
	opt("two triplets", s.TwoTriplets)
	opt("six dice nothing", s.SixDiceNothing)
	opt("entry", r.Turn.EntryMinimum)
	opt("bank minimum", r.Turn.BankMinimum)
	if p := r.Turn.FarklePenalty; p.Count > 0 {
		parts = append(parts, fmt.Sprintf("%d farkles -%d", p.Count, p.Points))
	}
	end := "final round"
	if r.Game.Ending == rules.EndImmediate {
		end = "immediate win"
	}
	parts = append(parts, fmt.Sprintf("target %d, %s", r.Game.Target, end))
	if r.Game.MaxTurns > 0 {
		parts = append(parts, fmt.Sprintf("at most %d turns each", r.Game.MaxTurns))
	}
	if r.Game.MinPlayers == r.Game.MaxPlayers {
		parts = append(parts, fmt.Sprintf("%d players", r.Game.MinPlayers))
	}
	desc := strings.Join(parts, "; ")
	if src, ok := presetSources[name]; ok {
		desc = src + ": " + desc
	}
	return desc
}

// setCommandHelp makes -h print the usage line, the summary, details (the
// paragraphs of the command's longer help) and the flags.
func setCommandHelp(e *env, fs *flag.FlagSet, c *command, details ...helpPara) {
	fs.Usage = func() { writeHelp(e.cat(), fs, c, details...) }
}

// emitJSON writes v as JSON and a newline to stdout, indented or as one line.
func emitJSON(e *env, v any, indent bool) error {
	var b []byte
	var err error
	if indent {
		b, err = json.MarshalIndent(v, "", "  ")
	} else {
		b, err = json.Marshal(v)
	}
	if err != nil {
		return err
	}
	_, err = e.stdout.Write(append(b, '\n'))
	return err
}
