package online

import (
	"github.com/farkle/farkle/game"
)

// follower is how the terminal follows the game at a table of one kind
// from the server's messages (docs/API.md): the ordinary game is replayed
// with the dice each update threw (farkle.go), Dragon Farkle is the seat's
// view (dragon.go). Each kind's follower is its own file; the link knows
// only this.
type follower interface {
	// game is the game now.
	game() game.Game
	// update follows an update message: the events that brought the game
	// to it, moved false when the game did not move (a message of the
	// table, or one already followed); an error when it cannot be
	// followed (a gap), after which the whole game is read again.
	update(msg []byte) (evs []game.Event, moved bool, err error)
	// wire is action a as the server reads it in an action message.
	wire(a game.Action) (any, error)
}

// followerKind starts the followers of one kind of game.
type followerKind struct {
	// started reports whether a welcome brings a game (else the table
	// waits for players).
	started func(welcome []byte) bool
	// start follows the game of the table's record so far (its seed
	// hidden) and the message that brought it (a welcome, or an update
	// after a gap), for the seat (-1: a watcher); it returns every event
	// it knows of, for the log.
	start func(rec *game.Record, msg []byte, seat int) (follower, []game.Event, error)
}

// followers are the kinds of game the terminal plays online.
var followers = map[game.Kind]followerKind{}
