package rules_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/farkle/farkle/rules"
)

func TestMaxTurnsParsesAndBounds(t *testing.T) {
	for _, format := range []string{"toml", "json"} {
		parse := func(doc string) (rules.Rules, error) {
			if format == "toml" {
				return rules.ParseTOML([]byte(doc))
			}
			return rules.ParseJSON([]byte(tomlToJSON(t, doc)))
		}
		r, err := parse("[game]\nmax_turns = 200")
		if err != nil || r.Game.MaxTurns != 200 {
			t.Fatalf("%s: max_turns = 200: %+v, %v", format, r.Game, err)
		}
		r, err = parse("[game]\nmax_turns = 10000")
		if err != nil || r.Game.MaxTurns != rules.MaxTurnsLimit {
			t.Fatalf("%s: the limit itself: %v", format, err)
		}
		r, err = parse("[game]\ntarget = 5000")
		if err != nil || r.Game.MaxTurns != 0 {
			t.Fatalf("%s: no max_turns must mean 0 (no cap): %+v, %v", format, r.Game, err)
		}
		_, err = parse("[game]\nmax_turns = -1")
		checkFieldError(t, err, "game.max_turns", "0 (no cap) to 10000", "-1")
		_, err = parse("[game]\nmax_turns = 10001")
		checkFieldError(t, err, "game.max_turns", "0 (no cap) to 10000", "10001")
	}
}

func TestMaxTurnsHashAndFiles(t *testing.T) {
	base := rules.MustPreset("classic")
	capped := base.Clone()
	capped.Game.MaxTurns = 200
	if capped.Hash() == base.Hash() {
		t.Fatal("max_turns changes play: it must change the hash")
	}
	if u := capped.ForSolver(); u.Hash() != base.ForSolver().Hash() || u.Game.MaxTurns != 0 || capped.Game.MaxTurns != 200 {
		t.Fatalf("ForSolver: %+v (hash %s, want %s); the original must keep its cap", u.Game, u.Hash(), base.ForSolver().Hash())
	}
	// No cap leaves files and JSON as they were before the field existed.
	if bytes.Contains(base.TOML(), []byte("max_turns")) {
		t.Fatalf("an uncapped rule file mentions max_turns:\n%s", base.TOML())
	}
	if b, _ := json.Marshal(base); bytes.Contains(b, []byte("max_turns")) {
		t.Fatalf("uncapped JSON mentions max_turns: %s", b)
	}
	back, err := rules.ParseTOML(capped.TOML())
	if err != nil || back.Hash() != capped.Hash() {
		t.Fatalf("TOML round trip of a capped rule set: %v", err)
	}
	b, _ := json.Marshal(capped)
	back, err = rules.ParseJSON(b)
	if err != nil || back.Game.MaxTurns != 200 {
		t.Fatalf("JSON round trip of a capped rule set: %+v %v", back.Game, err)
	}
}
