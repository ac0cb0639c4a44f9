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
// table from the store exactly (record.Resume with the stored seed). Bots
// play their seats on the server at a visible pace. docs/API.md documents
// the REST routes and the WebSocket protocol.
//
// A table created with the rules "dragon" plays Dragon Farkle (package
// dragon; dragon.go): the same seats, tokens, commitment, checks and
// storage (the actions as opaque JSON through store.RawStore), with each
// client sent only the dragon.View of its own seat, so that no player's
// Magic Items reach another player's browser.
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
