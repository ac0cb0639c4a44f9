// Package server is the web game: an authoritative HTTP and WebSocket
// server over a store.Store, with the browser UI of web/ embedded.
//
// The server throws the dice from a secret seed per table (ChaCha8),
// publishes the seed's SHA-256 commitment when the table opens and reveals
// the seed when the game ends, so the downloaded record passes
// `farkle verify`. Every action sent over a WebSocket is checked in a fixed
// order—known message, seat token, game not over, player's turn, action
// legal, state version current—and a refused action gets an error sent to
// that client alone and changes nothing. An accepted action is committed to
// the store before it is broadcast, so a restarted server resumes every
// table from the store exactly (game.Resume with the stored seed). Bots
// play their seats on the server at a visible pace. docs/API.md documents
// the REST routes and the WebSocket protocol; the wire types are the
// server's own (farkle_wire.go, dragon_wire.go), pinned by golden files.
//
// A table plays any kind of game of package game: it holds a game.Play,
// and its seats, tokens, commitment, checks, storage, bots (bots.go), turn
// clock, failures and restarts are the same whatever the kind. What
// differs is a gameKind (kind.go): the ordinary game's messages, bots and
// hints (farkle.go), and Dragon Farkle's (dragon.go), where each client is
// sent only the dragon.View of its own seat, so that no player's Magic
// Items reach another player's browser. At the end of a game its players
// may ask for a rematch (rematch.go): the same seats and rules at a new
// table, the friends' seats kept for them, the winner first where the
// rules' game.next_first says so.
//
// The HTTP edge (guard.go) runs before every handler: a state-changing
// request must be JSON and not from another site, and every POST and
// WebSocket upgrade is rate-limited per client address (clientaddr.go:
// the TCP peer, or what a trusted proxy forwarded) and per player, with
// bounded memory (ratelimit.go); WebSocket connections are capped per
// address and in all, their messages limited per connection and per
// player (wslimit.go, wsaccept.go). Errors reach clients without internal
// prefixes (errmsg.go).
package server
