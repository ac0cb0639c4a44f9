package dragon

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/farkle/farkle/dice"
)

// ledger follows a game through its events alone, to check the state's
// soldiers against an independent account.
type ledger struct {
	soldiers []int
	pool     int
	meal     int
	battle   bool
}

func (l *ledger) apply(t *testing.T, evs []Event) {
	t.Helper()
	for _, e := range evs {
		switch e.Kind {
		case EvBattleStart:
			l.battle = true
			if e.N != l.soldiers[e.Seat] {
				t.Fatalf("battle starts with %d soldiers, ledger says %d", e.N, l.soldiers[e.Seat])
			}
		case EvWave, EvFire:
			l.soldiers[e.Seat] -= e.N
			l.meal += e.N
			if e.Total != l.soldiers[e.Seat] {
				t.Fatalf("%s leaves %d soldiers, ledger says %d", e.Kind, e.Total, l.soldiers[e.Seat])
			}
		case EvStart:
			l.soldiers[e.Seat] += e.N
		case EvHire:
			l.soldiers[e.Seat] -= e.N
			if e.Total != l.soldiers[e.Seat] {
				t.Fatalf("a hire leaves %d soldiers, ledger says %d", e.Total, l.soldiers[e.Seat])
			}
		case EvBattleEnd, EvWin:
			l.battle = false
		case EvKeep:
			if l.battle {
				l.soldiers[e.Seat] -= e.N
				l.meal += e.N
			} else {
				l.pool += e.N
			}
		case EvBattleLost:
			if e.Total != l.soldiers[e.Seat] {
				t.Fatalf("battle lost with %d, ledger says %d", e.Total, l.soldiers[e.Seat])
			}
			l.soldiers[e.Seat] = 0
			l.meal += e.Total
		case EvFarkle:
			if e.N != l.pool {
				t.Fatalf("farkle loses %d, ledger pool %d", e.N, l.pool)
			}
			l.pool = 0
		case EvBank:
			if e.N != l.pool {
				t.Fatalf("bank of %d, ledger pool %d", e.N, l.pool)
			}
			l.soldiers[e.Seat] += l.pool
			l.pool = 0
		case EvBrawl:
			if e.Winner >= 0 {
				loser := e.Seat + e.Target - e.Winner
				l.soldiers[e.Winner] += e.Total + e.Bonus
				l.soldiers[loser] -= e.Total
			}
		}
	}
}

func (l *ledger) check(t *testing.T, s State) {
	t.Helper()
	for i, p := range s.Players {
		if p.Soldiers != l.soldiers[i] {
			t.Fatalf("seat %d has %d soldiers, the events say %d", i, p.Soldiers, l.soldiers[i])
		}
	}
	if s.Pool != l.pool || s.Meal != l.meal {
		t.Fatalf("pool %d meal %d, the events say %d and %d", s.Pool, s.Meal, l.pool, l.meal)
	}
	checkConservation(t, s)
}

// randomAction is an arbitrary, usually illegal, action.
func randomAction(src dice.Source, ids []string) Action {
	a := Action{Kind: ActionKind(dice.Intn(src, len(actionNames)+1))}
	switch dice.Intn(src, 3) {
	case 0:
		a.Keep = dice.AllThrows()[dice.Intn(src, len(dice.AllThrows()))]
	case 1:
		a.Target = dice.Intn(src, 7) - 1
	}
	if dice.Intn(src, 2) == 0 {
		a.Card = ids[dice.Intn(src, len(ids))]
	}
	if dice.Intn(src, 3) == 0 {
		a.Face = dice.Intn(src, 8)
	}
	if dice.Intn(src, 3) == 0 {
		a.Reward = Reward(dice.Intn(src, 4))
	}
	return a
}

// TestPropertyRandomGames plays many games with a mix of bots and checks,
// after every action: the soldier conservation invariant and the
// independent ledger of the events; that, for every seat, every action
// LegalFor lists is accepted from that seat; that only the seat the game
// waits for has legal actions; and that every other action, from any seat,
// is rejected with the state left exactly as it was.
func TestPropertyRandomGames(t *testing.T) {
	games := 100
	if testing.Short() {
		games = 30
	}
	cards := DefaultCards()
	r := DefaultRules()
	r.SeatBonus = 250 // so that the start events are checked too
	g := MustGame(r, cards)
	brains := NewBrains(g)
	ids := append(ids(cards.Companions), ids(cards.Items)...)
	ids = append(ids, "nonsense", "")
	levels := []Level{Random, Simple, Smart}
	probe := dice.NewSource(dice.SeedFrom("99"))
	seen := map[EventKind]int{}
	offTurn := 0
	for game := range games {
		src := dice.NewSource(GameSeed(dice.SeedFrom("5"), game))
		n := 2 + game%4
		names := make([]string, n)
		bots := make([]*Bot, n)
		for i := range n {
			names[i] = "p"
			bots[i] = NewBot(levels[(game+i)%3], brains)
		}
		s, start, err := g.New(names, src)
		if err != nil {
			t.Fatal(err)
		}
		l := &ledger{soldiers: make([]int, n)}
		l.apply(t, start)
		l.check(t, s)
		for _, e := range start {
			seen[e.Kind]++
		}
		for step := 0; !s.Over(); step++ {
			if s.Round > 60 {
				break
			}
			actor := s.ToAct()
			legal := g.Legal(s)
			if len(legal) == 0 {
				t.Fatalf("game %d: no legal action in phase %s", game, s.Phase)
			}
			if actor != s.Turn {
				offTurn++ // an action off the player's own turn
			}
			full := game < 40 // the exhaustive probes are slow; do them in some games
			for seat := -1; seat <= n; seat++ {
				mine := g.LegalFor(s, seat)
				if seat == actor && !slices.Equal(mine, legal) {
					t.Fatalf("game %d: LegalFor(actor %d) = %v, Legal = %v", game, seat, mine, legal)
				}
				if seat != actor && len(mine) > 0 {
					t.Fatalf("game %d phase %s: seat %d has legal actions %v but the game waits for %d", game, s.Phase, seat, mine, actor)
				}
				if full {
					for _, a := range mine {
						if _, _, err := g.ApplyFor(s, seat, a, dice.NewSource(dice.SeedFrom(fmt.Sprint(step)))); err != nil {
							t.Fatalf("game %d: legal action %s of seat %d rejected: %v", game, a, seat, err)
						}
					}
				}
				probes := 5
				if seat == actor {
					probes = 20
				}
				for k := range probes {
					a := randomAction(probe, ids)
					if seat != actor && k < len(legal) {
						a = legal[k] // the actor's actions, from the wrong seat
					}
					if slices.Contains(mine, a) {
						continue
					}
					before := s.Clone()
					if err := g.Check(s, seat, a); err == nil {
						t.Fatalf("game %d phase %s: Check accepts %+v from seat %d, not listed in %v", game, s.Phase, a, seat, mine)
					}
					next, evs, err := g.ApplyFor(s, seat, a, probe)
					if err == nil {
						t.Fatalf("game %d phase %s: %+v from seat %d accepted but not listed in %v", game, s.Phase, a, seat, mine)
					}
					if !reflect.DeepEqual(before, s) || !reflect.DeepEqual(before, next) || evs != nil {
						t.Fatalf("rejected %+v changed the state", a)
					}
				}
			}
			a := bots[actor].Choose(g.View(s, actor), src)
			var evs []Event
			s, evs, err = g.Apply(s, a, src)
			if err != nil {
				t.Fatalf("game %d: bot action %s: %v", game, a, err)
			}
			l.apply(t, evs)
			l.check(t, s)
			for _, e := range evs {
				seen[e.Kind]++
			}
		}
	}
	// The games must have gone through every part of the rules.
	// (A lost battle needs a player to spend nearly everything; bots keep
	// cheap dice, so TestBattleEvents covers it instead.)
	for k := EvThrow; int(k) < len(eventNames); k++ {
		if seen[k] == 0 && k != EvBattleLost && !testing.Short() {
			t.Errorf("no %s event in %d games", k, games)
		}
	}
	if offTurn == 0 && !testing.Short() {
		t.Errorf("no action off the player's own turn (a defender's card in a brawl) in %d games", games)
	}
	t.Logf("events: %v", seen)
}
