// Package tui plays Farkle in the terminal: a Bubble Tea game (Model, Run)
// with dice drawn as faces, a scoreboard, a log, a help screen with the
// rules in force, hints, hot-seat players and bots; and a plain line mode
// (RunLines) for pipes, scripts and screen readers.
//
// The number keys choose dice by face, the language of every hint and
// message (see diceSelection); the mouse chooses a die where it lies and
// presses the keys drawn at the bottom (see mouse.go). The bots play at a
// pace the player sets (BotPaces); a perfect bot's first solve shows its
// progress (SolveMeter) and survives a quit; at the end, p plays again.
//
// Dragon Farkle has its own pair of front ends on package dragon
// (DragonModel, RunDragon, RunDragonLines, DragonGame): every seat is drawn
// from that seat's filtered view, so another player's Magic Items never
// reach the screen, and a hot-seat pass screen hides every hand.
//
// Both Farkle front ends drive the same Game: a game.Play (the game of any
// variant, its seeded dice and the record of every action) with its seats
// (people, and bots of the game.Bot contract), a log of what happened, and
// the file it is saved to.
//
// Saved games. Every game is written as a record (game.Record,
// farkle-record/2) to a file
// in the games directory (GamesDir) when a turn ends, when the game ends and
// when the player quits. A record commits to its dice seed and reveals it
// only when the game is over; so that an unfinished game can be resumed,
// its seed is written beside the record in a sidecar file (the record's name
// with ".seed" instead of ".json"), which is removed once the game is over
// and the seed is in the record. A locally saved unfinished game is
// therefore not a fair-dice commitment to yourself: whoever can read the
// sidecar knows every future throw.
//
// Online play. A Game may also be played at a farkle server (Online, a
// Remote from package online): the person's actions go to the server, the
// game moves when the server's updates come back, other seats' moves are
// waited for (Game.Waiting), and the turn clock and the link's state show
// under the header. LobbyModel is the server's lobby before a table.
//
// This package touches the terminal, the clock (bot pace, save times) and
// files (saved games); the game logic is the engine's.
package tui
