package dragon

import (
	"fmt"

	"github.com/farkle/farkle/rules"
)

// Rules is the Dragon Farkle rule set (docs/RULES.md section 5): the soldier
// table as a rules.Rules of its own plus the options of the dragon game.
// The zero value is not valid; start from DefaultRules.
type Rules struct {
	Name          string      `toml:"name" json:"name"`
	Base          string      `toml:"base,omitempty" json:"base,omitempty"`           // "" or "dragon": marks a Dragon Farkle rule file
	Soldiers      rules.Rules `toml:"soldiers" json:"soldiers"`                       // the soldier table; only dice and scoring matter
	MinPlayers    int         `toml:"min_players" json:"min_players"`                 // 2
	MaxPlayers    int         `toml:"max_players" json:"max_players"`                 // 5
	BattleMinimum int         `toml:"battle_minimum" json:"battle_minimum"`           // soldiers needed to start a Final Battle: 5000
	Battle        string      `toml:"battle" json:"battle"`                           // the battle's mechanics: BattleArmy (default) or BattleClassic
	BattleWave    int         `toml:"battle_wave" json:"battle_wave"`                 // army battle: soldiers every battle throw costs before it is thrown
	BattleFire    int         `toml:"battle_fire" json:"battle_fire"`                 // army battle: soldiers the dragon's fire burns on a throw without scoring dice that did not wound it
	SeatBonus     int         `toml:"seat_bonus" json:"seat_bonus"`                   // soldiers every player but the first player starts with
	DragonHealth  int         `toml:"dragon_health" json:"dragon_health"`             // damage that slays the dragon: 3
	RallyDamage   int         `toml:"rally_damage" json:"rally_damage"`               // damage of a Rally in battle: 1
	DragonDamage  int         `toml:"dragon_damage" json:"dragon_damage"`             // damage of a Dragon face in battle: 2
	BrawlBonus    int         `toml:"brawl_bonus" json:"brawl_bonus"`                 // soldiers from the stockpile to a brawl's winner: 500
	BrawlDice     [2]int      `toml:"brawl_dice" json:"brawl_dice"`                   // dice of the challenger and of the defender: 6, 5
	ItemLimit     int         `toml:"item_limit" json:"item_limit"`                   // Magic Items a player may hold at the end of a turn: 1
	RoundLimit    int         `toml:"round_limit" json:"round_limit"`                 // 0: none; else after this many rounds the most soldiers wins
	CardTiming    string      `toml:"card_timing" json:"card_timing"`                 // when active cards may be used: TimingAnytime (default) or TimingOwnTurn
	HireCost      int         `toml:"hire_cost" json:"hire_cost"`                     // soldiers a Companion hire costs; 0: no hiring
	CardFile      string      `toml:"card_file,omitempty" json:"card_file,omitempty"` // for the caller to load (ParseCards); this package never opens files
}

// The battle mechanics a Rules may name in its Battle field.
const (
	// BattleArmy is the Final Battle where the army matters
	// (RULES-DECISIONS.md 13-21): every throw sends a wave of soldiers
	// (BattleWave), kept dice cost their soldiers, and a throw without
	// scoring dice that did not wound the dragon is answered by its fire
	// (BattleFire) instead of ending the battle.
	BattleArmy = "army"
	// BattleClassic is the first battle (RULES-DECISIONS.md 13-21, the
	// classic notes): no waves, no fire, and a throw without scoring dice
	// that did not wound the dragon ends the battle. Records written before
	// the army battle (format farkle-dragon-record/1) replay with it.
	BattleClassic = "classic"
)

// The card timings a Rules may name in its CardTiming field.
const (
	// TimingAnytime lets an active card be used at every moment its effect
	// names (Effect.When): on its owner's recruiting and battle throws and
	// on the owner's throw in a Brawl, the defender's too
	// (RULES-DECISIONS.md 24, 30-33).
	TimingAnytime = "anytime"
	// TimingOwnTurn is the first card rule: active cards only on a throw
	// of their owner's recruiting or battle turn, a Brawl resolved in one
	// action and no hiring. Records written before card timing existed
	// (farkle-dragon-record/1 and /2, and records whose rules have no
	// card_timing) replay with it.
	TimingOwnTurn = "own_turn"
)

// SoldierRules returns the soldier table of docs/RULES.md section 5 as a
// rules.Rules: singles 1 = 100 and 5 = 50, triples as classic (three 1s =
// 1000, three Ns = 100 × N), four of a kind 1500, five of a kind not a meld
// (it scores as four of a kind plus a single or a triple plus singles), six
// of a kind 2500, three pairs 2000 (a four of a kind and a pair count as
// three pairs), the straight 3000. It passes rules.Validate.
func SoldierRules() rules.Rules {
	return rules.Rules{
		Name: "dragon-soldiers",
		Dice: 6,
		Scoring: rules.Scoring{
			Single:         map[string]int{"1": 100, "5": 50},
			Triple:         [6]int{1000, 200, 300, 400, 500, 600},
			KindMode:       rules.KindFixed,
			FourOfAKind:    1500,
			FiveOfAKind:    0,
			SixOfAKind:     2500,
			Straight:       3000,
			ThreePairs:     2000,
			ThreePairsQuad: true,
		},
		Turn: rules.Turn{HotDice: true},
		Game: rules.Game{
			Target:      5000, // unused by Dragon Farkle; the battle minimum stands in for it
			Ending:      rules.EndImmediate,
			MinPlayers:  2,
			MaxPlayers:  5,
			FirstPlayer: rules.RollOff,
			Tie:         rules.Share,
		},
	}
}

// The army battle's defaults (tuned by simulation; RULES-DECISIONS.md).
const (
	DefaultBattleWave = 1200
	DefaultBattleFire = 1000
	DefaultSeatBonus  = 300
	DefaultHireCost   = 200
)

// ClassicRules returns DefaultRules with the classic battle and no seat
// bonus: the rules every game was played with before the army battle.
func ClassicRules() Rules {
	r := DefaultRules()
	r.Battle, r.BattleWave, r.BattleFire, r.SeatBonus = BattleClassic, 0, 0, 0
	r.OwnTurnCards()
	return r
}

// OwnTurnCards sets the card rules every game was played with before card
// timing: active cards only on their owner's turn (TimingOwnTurn) and no
// hiring.
func (r *Rules) OwnTurnCards() { r.CardTiming, r.HireCost = TimingOwnTurn, 0 }

// Anytime reports whether active cards follow their effects' moments,
// in a Brawl too (TimingAnytime).
func (r *Rules) Anytime() bool { return r.CardTiming != TimingOwnTurn }

// Army reports whether the rules play the army battle.
func (r *Rules) Army() bool { return r.Battle != BattleClassic }

// DefaultRules returns the "dragon" preset: SoldierRules and the values of
// docs/RULES.md section 5, with no round limit.
func DefaultRules() Rules {
	return Rules{
		Name:          "dragon",
		Soldiers:      SoldierRules(),
		MinPlayers:    2,
		MaxPlayers:    5,
		BattleMinimum: 5000,
		Battle:        BattleArmy,
		BattleWave:    DefaultBattleWave,
		BattleFire:    DefaultBattleFire,
		SeatBonus:     DefaultSeatBonus,
		DragonHealth:  3,
		RallyDamage:   1,
		DragonDamage:  2,
		BrawlBonus:    500,
		BrawlDice:     [2]int{6, 5},
		ItemLimit:     1,
		CardTiming:    TimingAnytime,
		HireCost:      DefaultHireCost,
	}
}

// maxSoldierOption bounds every option counted in soldiers.
const maxSoldierOption = 1_000_000

// Validate returns nil or an error wrapping ErrInvalid that names the
// offending field and what is allowed.
func (r *Rules) Validate() error {
	if r.Base != "" && r.Base != "dragon" {
		return fmt.Errorf("%w: base: %q is not allowed (a Dragon Farkle rule file may only say base = \"dragon\")", ErrInvalid, r.Base)
	}
	if r.Battle != BattleArmy && r.Battle != BattleClassic {
		return fmt.Errorf("%w: battle: %q is not a battle (battles: %q, %q)", ErrInvalid, r.Battle, BattleArmy, BattleClassic)
	}
	if r.CardTiming != TimingAnytime && r.CardTiming != TimingOwnTurn {
		return fmt.Errorf("%w: card_timing: %q is not a card timing (timings: %q, %q)", ErrInvalid, r.CardTiming, TimingAnytime, TimingOwnTurn)
	}
	if r.CardTiming == TimingOwnTurn && r.HireCost != 0 {
		return fmt.Errorf("%w: hire_cost: hiring needs card_timing = %q (got %d with %q)", ErrInvalid, TimingAnytime, r.HireCost, TimingOwnTurn)
	}
	if err := r.Soldiers.Validate(); err != nil {
		return fmt.Errorf("%w: soldiers: %v", ErrInvalid, err)
	}
	if r.Soldiers.Dice != 6 {
		return fmt.Errorf("%w: soldiers.dice: Dragon Farkle is played with 6 dice (got %d)", ErrInvalid, r.Soldiers.Dice)
	}
	if r.MinPlayers < 2 || r.MaxPlayers > 5 || r.MinPlayers > r.MaxPlayers {
		return fmt.Errorf("%w: min_players/max_players: must satisfy 2 <= min <= max <= 5 (got %d, %d)", ErrInvalid, r.MinPlayers, r.MaxPlayers)
	}
	checks := []struct {
		name   string
		v, min int
	}{
		{"battle_minimum", r.BattleMinimum, 0},
		{"dragon_health", r.DragonHealth, 1},
		{"rally_damage", r.RallyDamage, 0},
		{"dragon_damage", r.DragonDamage, 0},
		{"brawl_bonus", r.BrawlBonus, 0},
		{"brawl_dice[0]", r.BrawlDice[0], 1},
		{"brawl_dice[1]", r.BrawlDice[1], 1},
		{"item_limit", r.ItemLimit, 0},
		{"round_limit", r.RoundLimit, 0},
		{"battle_wave", r.BattleWave, 0},
		{"battle_fire", r.BattleFire, 0},
		{"seat_bonus", r.SeatBonus, 0},
		{"hire_cost", r.HireCost, 0},
	}
	for _, c := range checks {
		if c.v < c.min {
			return fmt.Errorf("%w: %s: must be at least %d (got %d)", ErrInvalid, c.name, c.min, c.v)
		}
	}
	if r.BrawlDice[0] > 6 || r.BrawlDice[1] > 6 {
		return fmt.Errorf("%w: brawl_dice: at most 6 dice each (got %v)", ErrInvalid, r.BrawlDice)
	}
	if r.Battle == BattleArmy && r.BattleWave < 1 {
		return fmt.Errorf("%w: battle_wave: the army battle needs a wave of at least 1 soldier (got %d)", ErrInvalid, r.BattleWave)
	}
	for _, c := range []struct {
		name string
		v    int
	}{{"battle_minimum", r.BattleMinimum}, {"battle_wave", r.BattleWave}, {"battle_fire", r.BattleFire}, {"seat_bonus", r.SeatBonus}, {"hire_cost", r.HireCost}} {
		if c.v > maxSoldierOption {
			return fmt.Errorf("%w: %s: at most %d (got %d)", ErrInvalid, c.name, maxSoldierOption, c.v)
		}
	}
	if r.DragonHealth > 20 {
		return fmt.Errorf("%w: dragon_health: at most 20 (got %d)", ErrInvalid, r.DragonHealth)
	}
	return nil
}
