package dragon

import (
	"errors"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
)

// The soldier table of docs/RULES.md section 5, written out by hand.
func TestSoldierTable(t *testing.T) {
	r := SoldierRules()
	if err := r.Validate(); err != nil {
		t.Fatalf("SoldierRules does not validate: %v", err)
	}
	tab := dice.NewTable(r)
	cases := []struct {
		keep string
		want int // 0: not every die scores
	}{
		{"1", 100},
		{"5", 50},
		{"2", 0},
		{"111", 1000},
		{"222", 200},
		{"333", 300},
		{"444", 400},
		{"555", 500},
		{"666", 600},
		{"1111", 1500},  // four of a kind; better than 1000 + 100
		{"6666", 1500},  // four of a kind
		{"11111", 1600}, // five of a kind is no meld: four 1s + a 1
		{"55555", 1550}, // four 5s + a 5
		{"22222", 0},    // four 2s + a lone 2 that cannot score
		{"111111", 2500},
		{"222222", 2500},
		{"223344", 2000}, // three pairs
		{"222233", 2000}, // a four of a kind and a pair count as three pairs
		{"123456", 3000},
		{"11155", 1100},
		{"12345", 0}, // no small straights
	}
	for _, c := range cases {
		t.Run(c.keep, func(t *testing.T) {
			got, ok := tab.Points(h(c.keep))
			if c.want == 0 {
				if ok {
					t.Fatalf("%s scores %d; want not every die to score", c.keep, got)
				}
				return
			}
			if !ok || got != c.want {
				t.Fatalf("%s = %d (%v), want %d", c.keep, got, ok, c.want)
			}
		})
	}
}

func TestRulesValidate(t *testing.T) {
	def := DefaultRules()
	if err := def.Validate(); err != nil {
		t.Fatalf("DefaultRules: %v", err)
	}
	if def.BattleMinimum != 5000 || def.DragonHealth != 3 || def.RallyDamage != 1 || def.DragonDamage != 2 || def.BrawlBonus != 500 || def.ItemLimit != 1 || def.MinPlayers != 2 || def.MaxPlayers != 5 || def.RoundLimit != 0 {
		t.Fatalf("DefaultRules differ from docs/RULES.md section 5: %+v", def)
	}
	cases := []struct {
		name  string
		edit  func(*Rules)
		field string
	}{
		{"one player", func(r *Rules) { r.MinPlayers = 1 }, "min_players"},
		{"six players", func(r *Rules) { r.MaxPlayers = 6 }, "max_players"},
		{"negative minimum", func(r *Rules) { r.BattleMinimum = -1 }, "battle_minimum"},
		{"no health", func(r *Rules) { r.DragonHealth = 0 }, "dragon_health"},
		{"negative round limit", func(r *Rules) { r.RoundLimit = -2 }, "round_limit"},
		{"seven brawl dice", func(r *Rules) { r.BrawlDice[0] = 7 }, "brawl_dice"},
		{"five dice", func(r *Rules) {
			r.Soldiers.Dice = 5
			r.Soldiers.Scoring.Straight, r.Soldiers.Scoring.ThreePairs, r.Soldiers.Scoring.SixOfAKind = 0, 0, 0
		}, "soldiers.dice"},
		{"bad soldier table", func(r *Rules) { r.Soldiers.Scoring.KindMode = "triple" }, "kind_mode"},
		{"unknown battle", func(r *Rules) { r.Battle = "siege" }, "battle"},
		{"no battle", func(r *Rules) { r.Battle = "" }, "battle"},
		{"army without a wave", func(r *Rules) { r.BattleWave = 0 }, "battle_wave"},
		{"negative fire", func(r *Rules) { r.BattleFire = -1 }, "battle_fire"},
		{"negative seat bonus", func(r *Rules) { r.SeatBonus = -300 }, "seat_bonus"},
		{"huge seat bonus", func(r *Rules) { r.SeatBonus = 2_000_000 }, "seat_bonus"},
		{"huge wave", func(r *Rules) { r.BattleWave = 2_000_000 }, "battle_wave"},
	}
	// The classic battle needs no wave.
	classic := ClassicRules()
	if err := classic.Validate(); err != nil {
		t.Fatalf("ClassicRules: %v", err)
	}
	if def.Battle != BattleArmy || def.BattleWave != 1200 || def.BattleFire != 1000 || def.SeatBonus != 300 {
		t.Fatalf("the army battle's defaults: %+v", def)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := DefaultRules()
			r.Soldiers = r.Soldiers.Clone()
			c.edit(&r)
			err := r.Validate()
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Validate = %v, want ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), c.field) {
				t.Fatalf("error %q does not name %s", err, c.field)
			}
			if _, err := NewGame(r, nil); !errors.Is(err, ErrInvalid) {
				t.Fatalf("NewGame accepted invalid rules: %v", err)
			}
		})
	}
}
