package server

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/farkle/farkle/engine"
)

// FuzzClientMessage feeds arbitrary bytes to the WebSocket message parser:
// it never panics, and what it accepts is a known action with a legal
// shape.
func FuzzClientMessage(f *testing.F) {
	for _, s := range []string{
		`{"type":"action","version":3,"action":{"type":"keep","dice":[1,5]}}`,
		`{"type":"action","version":0,"seat":1,"action":{"type":"roll-off"}}`,
		`{"type":"action","version":2,"action":{"type":"bank","dice":[1]}}`,
		`{"type":"action","action":{"type":"throw"}}`,
		`{"type":"hint","id":"x"}`, `{"type":"ping"}`, `{"type":"action","version":1,"action":{"type":"keep","dice":[7,0]}}`,
		`[1]`, `{`, `{"type":"action","version":1,"action":{"type":"keep","dice":[1,1,1,1,1,1,1]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var m clientMsg
		if err := decodeStrict(data, &m); err != nil {
			return
		}
		if m.Type != "action" {
			return
		}
		if len(m.Action) == 0 || m.Version == nil {
			return
		}
		ga, err := (&farkleKind{}).parseAction(m.Action)
		if err != nil {
			if ga != nil {
				t.Fatalf("refused but returned %v", ga)
			}
			return
		}
		a := ga.(engine.Action)
		if a.Kind < engine.Throw || a.Kind > engine.RollOff {
			t.Fatalf("accepted unknown kind %v from %s", a.Kind, data)
		}
		if (a.Kind == engine.Keep) != (a.Dice.N() > 0) || a.Dice.N() > 6 {
			t.Fatalf("accepted %v with %d dice from %s", a.Kind, a.Dice.N(), data)
		}
		if _, err := json.Marshal(a); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzCleanName: an accepted name is 1..MaxName printable characters with
// single spaces, and cleaning it again changes nothing.
func FuzzCleanName(f *testing.F) {
	for _, s := range []string{"Ann", "  a  b ", "<script>", "\x00", "é", strings.Repeat("x", 30), "a\u200bb", "\t\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := CleanName(in)
		if err != nil {
			return
		}
		n := utf8.RuneCountInString(out)
		if n < 1 || n > MaxName || strings.Contains(out, "  ") || strings.TrimSpace(out) != out || !utf8.ValidString(out) {
			t.Fatalf("CleanName(%q) = %q", in, out)
		}
		if again, err := CleanName(out); err != nil || again != out {
			t.Fatalf("CleanName is not idempotent on %q: %q %v", out, again, err)
		}
	})
}

// FuzzParseRules: rules a table request accepts are valid.
func FuzzParseRules(f *testing.F) {
	for _, s := range []string{`"classic"`, `"nope"`, `{"base":"classic","game":{"target":500}}`, `{"game":{"target":0}}`,
		`{"scoring":{"triple":[1,2,3]}}`, `null`, `{"turn":{"entry_minimum":20000}}`, `[]`, `{"dice":7}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseRules(json.RawMessage(data))
		if err != nil {
			return
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("ParseRules(%s) accepted invalid rules: %v", data, err)
		}
	})
}
