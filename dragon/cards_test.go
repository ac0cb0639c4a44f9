package dragon

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestDefaultCards(t *testing.T) {
	cs := DefaultCards()
	if len(cs.Companions) < 8 || len(cs.Items) < 12 {
		t.Fatalf("%d companions and %d items; want at least 8 and 12", len(cs.Companions), len(cs.Items))
	}
	sack := cs.Card("sack")
	if sack == nil || sack.Name != "Sack of Holding" || sack.Kind != Item || sack.Sum(HoldItems, "") < 1 {
		t.Fatalf("no Sack of Holding item with hold_items: %+v", sack)
	}
	used := map[Primitive]bool{}
	for _, c := range append(append([]Card{}, cs.Companions...), cs.Items...) {
		if c.Name == "" || c.Text == "" || len(c.Effects) == 0 {
			t.Errorf("card %q lacks a name, text or effect", c.ID)
		}
		for _, e := range c.Effects {
			used[e.Primitive] = true
		}
	}
	for _, p := range Primitives() {
		if !used[p] {
			t.Errorf("no default card uses primitive %s", p)
		}
	}
	if !bytes.Contains(DefaultCardsTOML(), []byte("NOT reproduced")) {
		t.Error("cards.toml does not say that the official card texts are not reproduced")
	}
}

// TestMoments: an active effect without when may be used wherever its
// primitive works; with when, only there.
func TestMoments(t *testing.T) {
	cs, err := ParseCards([]byte(`[[item]]
id = "a"
name = "A"
text = "t"
effects = [{ primitive = "reroll_farkle" }]

[[item]]
id = "b"
name = "B"
text = "t"
effects = [{ primitive = "rethrow", when = ["brawl", "recruit"] }]
`))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := cs.Card("a").Active()
	b, _ := cs.Card("b").Active()
	if !slices.Equal(a.Moments(), []Moment{AtRecruit, AtBrawl}) || !slices.Equal(b.Moments(), []Moment{AtBrawl, AtRecruit}) {
		t.Fatalf("moments %v and %v", a.Moments(), b.Moments())
	}
	if !strings.Contains(string(cs.TOML()), `when = ["brawl", "recruit"]`) || strings.Count(string(cs.TOML()), "when") != 1 {
		t.Fatalf("TOML:\n%s", cs.TOML())
	}
}

func TestCardsRoundTrip(t *testing.T) {
	cs := DefaultCards()
	again, err := ParseCards(cs.TOML())
	if err != nil {
		t.Fatalf("ParseCards(TOML()): %v\n%s", err, cs.TOML())
	}
	if !reflect.DeepEqual(cs.Companions, again.Companions) || !reflect.DeepEqual(cs.Items, again.Items) {
		t.Fatal("the card set changed in a round trip through TOML")
	}
}

func TestParseCardsErrors(t *testing.T) {
	const good = `[[item]]
id = "x"
name = "X"
text = "Does x."
effects = [{ primitive = "rethrow" }]
`
	if _, err := ParseCards([]byte(good)); err != nil {
		t.Fatalf("good file: %v", err)
	}
	cases := []struct {
		name, file string
		want       []string // substrings of the error
	}{
		{"syntax", `[[item]`, nil},
		{"unknown table", "[[monster]]\nid = \"m\"\n", []string{`"monster"`}},
		{"unknown card field", strings.Replace(good, `text = "Does x."`, "text = \"Does x.\"\ncolour = \"red\"", 1), []string{`item 1 "x"`, "colour"}},
		{"unknown primitive", strings.Replace(good, "rethrow", "fireball", 1), []string{`item 1 "x"`, "effects[0]", "fireball"}},
		{"unknown effect field", strings.Replace(good, `primitive = "rethrow"`, `primitive = "rethrow", power = 3`, 1), []string{`"x"`, "power"}},
		{"n on active", strings.Replace(good, `primitive = "rethrow"`, `primitive = "rethrow", n = 2`, 1), []string{`"x"`, "n:"}},
		{"missing n", strings.Replace(good, `primitive = "rethrow"`, `primitive = "brawl_guard"`, 1), []string{`"x"`, "n: missing"}},
		{"zero n", strings.Replace(good, `primitive = "rethrow"`, `primitive = "brawl_guard", n = 0`, 1), []string{`"x"`, "n:"}},
		{"string n", strings.Replace(good, `primitive = "rethrow"`, `primitive = "brawl_guard", n = "lots"`, 1), []string{`"x"`, "n:"}},
		{"missing meld", strings.Replace(good, `primitive = "rethrow"`, `primitive = "meld_bonus", n = 50`, 1), []string{`"x"`, "meld: missing"}},
		{"unknown meld", strings.Replace(good, `primitive = "rethrow"`, `primitive = "meld_bonus", n = 50, meld = "pairs"`, 1), []string{`"x"`, `"pairs"`}},
		{"meld elsewhere", strings.Replace(good, `primitive = "rethrow"`, `primitive = "brawl_guard", n = 5, meld = "single"`, 1), []string{`"x"`, "meld:"}},
		{"two actives", strings.Replace(good, `{ primitive = "rethrow" }`, `{ primitive = "rethrow" }, { primitive = "two_as_five" }`, 1), []string{`"x"`, "effects[1]", "one active"}},
		{"no effects", strings.Replace(good, `effects = [{ primitive = "rethrow" }]`, `effects = []`, 1), []string{`"x"`, "effects"}},
		{"missing effects", strings.Replace(good, `effects = [{ primitive = "rethrow" }]`, ``, 1), []string{`"x"`, "effects: missing"}},
		{"missing name", strings.Replace(good, `name = "X"`, ``, 1), []string{`"x"`, "name: missing"}},
		{"empty text", strings.Replace(good, `text = "Does x."`, `text = " "`, 1), []string{`"x"`, "text"}},
		{"two-line text", strings.Replace(good, `text = "Does x."`, `text = "Does\nx."`, 1), []string{`"x"`, "one line"}},
		{"duplicate id", good + strings.Replace(good, "[[item]]", "[[companion]]", 1), []string{`"x"`, "duplicate"}},
		{"not a table list", "item = 3\n", []string{"item"}},
		{"when on a passive", strings.Replace(good, `primitive = "rethrow"`, `primitive = "brawl_guard", n = 5, when = ["brawl"]`, 1), []string{`item 1 "x"`, "effects[0]", "when:", "only active"}},
		{"unknown moment", strings.Replace(good, `primitive = "rethrow"`, `primitive = "rethrow", when = ["dinner"]`, 1), []string{`"x"`, "when:", `"dinner"`, "recruit, battle, brawl"}},
		{"moment the primitive lacks", strings.Replace(good, `primitive = "rethrow"`, `primitive = "ignore_dragon", when = ["recruit", "battle"]`, 1), []string{`"x"`, "when:", `"battle"`, "recruit, brawl"}},
		{"no moment", strings.Replace(good, `primitive = "rethrow"`, `primitive = "rethrow", when = []`, 1), []string{`"x"`, "when:", "at least one"}},
		{"moment twice", strings.Replace(good, `primitive = "rethrow"`, `primitive = "rethrow", when = ["brawl", "brawl"]`, 1), []string{`"x"`, "when:", "twice"}},
		{"when not a list", strings.Replace(good, `primitive = "rethrow"`, `primitive = "rethrow", when = "brawl"`, 1), []string{`"x"`, "when:", "list"}},
		{"moment not a string", strings.Replace(good, `primitive = "rethrow"`, `primitive = "rethrow", when = [1]`, 1), []string{`"x"`, "when:", "strings"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseCards([]byte(c.file))
			if !errors.Is(err, ErrCards) {
				t.Fatalf("ParseCards = %v, want ErrCards", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func FuzzParseCards(f *testing.F) {
	f.Add(DefaultCardsTOML())
	f.Add([]byte("[[item]]\nid = \"a\"\nname = \"A\"\ntext = \"t\"\neffects = [{ primitive = \"hold_items\", n = 2 }]\n"))
	f.Add([]byte("[[companion]]\nid = 1\n"))
	f.Add([]byte("[[item]]\nid = \"w\"\nname = \"W\"\ntext = \"t\"\neffects = [{ primitive = \"reroll_farkle\", when = [\"brawl\", \"recruit\"] }]\n"))
	f.Add([]byte("companion = [{ id = \"q\", name = \"Q\", text = \"T\", effects = [{ primitive = \"meld_bonus\", n = 5, meld = \"kind\" }] }]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cs, err := ParseCards(data)
		if err != nil {
			if !errors.Is(err, ErrCards) {
				t.Fatalf("error does not wrap ErrCards: %v", err)
			}
			return
		}
		again, err := ParseCards(cs.TOML())
		if err != nil {
			t.Fatalf("re-parse of a parsed card set: %v\n%s", err, cs.TOML())
		}
		if !reflect.DeepEqual(cs.Companions, again.Companions) || !reflect.DeepEqual(cs.Items, again.Items) {
			t.Fatalf("round trip changed the card set")
		}
		for _, c := range append(append([]Card{}, cs.Companions...), cs.Items...) {
			if cs.Card(c.ID) == nil {
				t.Fatalf("card %q not found by id", c.ID)
			}
			if e, ok := c.Active(); ok {
				for _, m := range e.Moments() {
					if !slices.Contains(moments[e.Primitive], m) {
						t.Fatalf("card %q may be used at %q, where %s does nothing", c.ID, m, e.Primitive)
					}
				}
			}
			if strings.ContainsAny(c.Name+c.Text, "\n\r") {
				t.Fatalf("card %q has a multi-line name or text", c.ID)
			}
		}
	})
}
