package dragon

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseRules(t *testing.T) {
	r, err := ParseRules([]byte("name = \"quick\"\nbattle_minimum = 3000\nround_limit = 15\n[soldiers.scoring]\nfour_of_a_kind = 2000\n"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Name != "quick" || r.BattleMinimum != 3000 || r.RoundLimit != 15 || r.Soldiers.Scoring.FourOfAKind != 2000 || r.Soldiers.Scoring.Straight != 3000 || r.DragonHealth != 3 {
		t.Fatalf("parsed %+v", r)
	}
	empty, err := ParseRules(nil)
	if err != nil || !reflect.DeepEqual(empty, DefaultRules()) {
		t.Fatalf("an empty file is not the default: %+v, %v", empty, err)
	}
	for _, c := range []struct{ name, file, want string }{
		{"unknown", "dragon_hp = 4", "dragon_hp"},
		{"unknown nested", "[soldiers.scoring]\nfive_of_a_kid = 1", "five_of_a_kid"},
		{"invalid", "round_limit = -1", "round_limit"},
		{"syntax", "round_limit = ", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseRules([]byte(c.file))
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("ParseRules = %v, want ErrInvalid naming %q", err, c.want)
			}
		})
	}
	b, _ := json.Marshal(r)
	back, err := ParseRulesJSON(b)
	if err != nil || !reflect.DeepEqual(back, r) {
		t.Fatalf("JSON round trip: %+v, %v", back, err)
	}
	if _, err := ParseRulesJSON([]byte(`{"dragon_hp": 4}`)); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "dragon_hp") {
		t.Fatalf("unknown JSON field: %v", err)
	}
}

func FuzzParseRules(f *testing.F) {
	f.Add([]byte("battle_minimum = 3000\nround_limit = 15\n"))
	f.Add([]byte("[soldiers.scoring]\nkind_mode = \"multiply\"\n"))
	f.Add([]byte("brawl_dice = [6, 6]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseRules(data)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error does not wrap ErrInvalid: %v", err)
			}
			return
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("accepted invalid rules: %v", err)
		}
		if _, err := NewGame(r, NoCards()); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzParseRulesJSON(f *testing.F) {
	f.Add([]byte(`{"round_limit": 3}`))
	f.Add([]byte(`{"soldiers": {"scoring": {"straight": 0}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseRulesJSON(data)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error does not wrap ErrInvalid: %v", err)
			}
			return
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("accepted invalid rules: %v", err)
		}
	})
}
