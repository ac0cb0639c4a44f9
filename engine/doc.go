// Package engine plays multi-player Farkle (1 to 8 players) as a pure state
// machine: Apply(state, action, source) returns the next state and the
// events that happened, or an error and leaves the state as it was; Legal
// lists the actions allowed in a state. There is no I/O, no clock and no
// global random: dice come from the dice.Source passed in, so a game is
// reproducible from (rules, seed, actions).
//
// The rules it plays are docs/RULES.md sections 1 and 6, in short:
//
//   - A turn starts with a throw of all the dice. After a throw the player
//     keeps exactly one scoring set of its dice (a keep; melds only from
//     that throw), then throws the rest again or banks. When every die has
//     been kept, Throw throws them all again (hot dice) if the rules allow.
//   - A throw with no legal keep is a farkle: the turn total is lost and the
//     player's farkle streak grows; at the penalty count the penalty is
//     taken (never below a score of 0) and the streak restarts. A bank resets
//     the streak. With six_dice_nothing, a six-dice throw that scores nothing
//     adds the bonus and the player must throw six again.
//   - Bank is allowed when the turn total is at least the bank minimum and,
//     while the player's score is 0, at least the entry minimum. If neither
//     a throw nor a bank is possible (all dice kept, hot dice off, total too
//     small) the turn ends with nothing scored.
//   - Ending "immediate": a bank to at least the target wins at once.
//     Ending "final-round": the first such bank gives every other player
//     exactly one more turn; then the highest score wins. Ties roll off (one
//     die each, highest wins, ties again) or share the win.
//   - The first player is found by a roll-off or is seat 0.
//   - game.max_turns (0: no cap) caps a game's length. When the dice pass
//     and every player still in has started max_turns turns (the end of a
//     full round, so everyone in has had as many turns), the game ends as
//     a final round does: the highest score of those in wins, a tie rolls
//     off or shares by game.tie. The cap is checked only while no final
//     round is running: a final round in progress always runs to its end
//     (at most one more round).
//   - Resign: the player to act may leave the game at any point before it
//     is over, in play or in a roll-off. They are out for good: their turn
//     total is lost, they leave the roll-off, they are skipped in turns and
//     in the final round, and they can never win (their score stays for
//     the record). When one player is left in, that player wins at once;
//     otherwise the game goes on with the next player in, and a final round
//     runs on as before even when the one who resigned started it. Resign
//     is always legal for the actor, so Legal does not list it.
//
// Apply checks in a fixed order: the game is not over, the action is known,
// it is the acting player's turn, and the action is legal now (Resign
// skips the last check).
package engine
