// Package dragon plays Dragon Farkle (docs/RULES.md section 5): Farkle with
// soldiers instead of points, an event die, Companions and Magic Items,
// Brawls, and a Final Battle against a dragon (the army battle: every throw
// costs a wave of soldiers, so the army brought decides the odds; see
// RULES-DECISIONS.md). It is a pure state machine
// beside engine/, sharing only dice/ (the keep tables) and rules/ (the
// soldier table is a rules.Rules of its own, SoldierRules).
//
// # Playing
//
// A Game (NewGame) holds the immutable Rules, the soldier keep table and
// the card set. Game.New deals a State; Game.Apply(state, action, src)
// returns the next State and the Events that happened; Game.Legal(state)
// lists every legal action of the seat the game waits for, State.ToAct:
// the player whose turn it is, or, during a Brawl, the defender while the
// defender's throw waits for their cards (phase "brawl"). LegalFor(state,
// seat) answers for any seat (nothing for a seat not waited for). Apply
// never modifies the state it is given, and a rejected action returns an
// error wrapping ErrIllegal, ErrBadAction or ErrGameOver that says why,
// with the state unchanged. Every action Legal lists is accepted, and no
// other.
//
// Randomness comes only from the dice.Source passed in (Uint64; *rand.ChaCha8
// from math/rand/v2 satisfies it, NewSource keys it with a 32-byte seed).
// A die face is dice.Intn(src, 6)+1 by rejection sampling, so a game replays
// identically on every machine from its seed and actions. A throw draws its
// dice in order, then the event die (faces 1-4 Blank, 5 Rally, 6 Dragon);
// a brawl draws the challenger's dice and event die, then whatever the
// challenger's cards throw again, then the defender's, then theirs; New
// shuffles the Companion deck, then the Item deck (Fisher-Yates), deals
// and draws the first player; a draw from an empty deck first shuffles its
// discard pile. dice.Scripted replays chosen faces for tests.
//
// # Hidden information
//
// State holds everything (for the record). Game.View(state, seat) is what
// one seat may see: other players' Magic Items and items drawn this turn
// are hidden (only counts are shown), the decks show only their size; the
// seat's legal actions are included on its turn. ViewEvents hides the card
// of an item another player drew.
//
// # Cards
//
// The official Dragon Farkle card texts are not reproduced: the official
// texts are not public, and this package ships the project's own set of 10
// Companions and 13 Magic Items (among them the Sack of Holding) in
// cards.toml, embedded as the default (DefaultCards). A user may write their
// own file (ParseCards; the caller reads the file, this package touches no
// files). Each card is a name, one line of text and effects composed from
// the primitives in code (Primitives): rethrow, two_as_five,
// ignore_dragon, reroll_farkle (active: used by an ActUse action on the
// owner's own throw at the moments its effect's when names: recruit,
// battle, brawl; a Companion once per turn, an item once and then
// discarded) and meld_bonus, rally_damage, extra_item, brawl_guard,
// brawl_bonus, battle_discount, hold_items (passive: on while held).
// A player may hire a Companion at the start of a turn (ActHire, then
// ActDismiss of one of the two). The rules' card_timing "own_turn" keeps
// the first card rules (own turn only, no hiring) for old records.
//
// # Odds, bots, simulation
//
// BattleOdds is the exact probability of winning a Final Battle by
// soldiers, damage and dice, with the best keep after every throw (a
// dynamic program; see its doc for what a retreat is worth); OddsTable
// gives the rows for `farkle odds --rules dragon`. Bot plays a seat from
// its View at three levels (random, simple, smart); Brains holds the
// tables the bots share and Brains.Advise values each legal action for
// hints. Package sim plays whole bot games of it, as of every variant;
// GameSeed and RoundCap are the conventions of its simulations (farkle
// sim --rules dragon).
//
// # Front ends
//
// Game.ApplyFor and Game.Check check that the acting seat is the one the
// game waits for (State.ToAct, View.ToAct); Game.View and ViewEvents
// filter for a seat; Game.Describe writes an event as a line
// of English. Rules load from TOML or JSON (ParseRules, ParseRulesJSON);
// cards from TOML (ParseCards).
//
// Every rule decision where the rulebook is silent is listed in
// RULES-DECISIONS.md beside this file.
package dragon
