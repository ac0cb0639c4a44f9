// Package sshserve serves the terminal game over SSH (farkle serve --ssh):
// `ssh -p 2222 host` opens the lobby of the farkle server (tui.LobbyModel)
// in the player's terminal, at its size, and the games at its tables with
// the same screen as farkle play.
//
// A key is an account: the player is the one the SSH public key's SHA256
// fingerprint is tied to in the store (server.PlayerForKey), and an
// unknown key becomes a new guest named after the SSH user. Each session
// is a client of the server's own REST and WebSocket routes (package
// online), reached in process, without a socket, as if from the SSH
// client's address: browser, `farkle play --online` and SSH players meet at
// the same tables, and the server's limits per address apply to SSH
// players as to any other. The session's token is derived from the key
// and a secret of the host key (kept in the data directory), so the
// server still stores only tokens' hashes.
//
// The session's language is the one its environment asks for: ssh sends
// LANG (and LC_*) when the client's SendEnv names it (the ssh_config of
// Debian and Ubuntu does), read as lang.FromEnv reads a program's
// environment, e.g. `LANG=nb_NO.UTF-8 ssh -o SendEnv=LANG -p 2222 host`
// for Norwegian; English when none is sent.
//
// Limits (Options), for any key gets in: a session counts, from the
// opening of its channel to its close, against caps per key, per client
// address, per connection and in all; TCP connections per address are
// capped before the handshake, which has a deadline. Every request of a
// session passes a filter before the SSH library sees it: a pty's or a
// window change's size is clamped to Options.MaxWindow before anything is
// drawn (the program follows the last window asked for, however many
// come), a session keeps at most Options.Env variables, and each
// connection's requests are paced. A refused key is told why in an
// authentication banner, a refused channel in its rejection (one line in
// every language of the catalogues, English first: the client's LANG
// comes only with a session's environment, after both), and what was
// bounded in a session on its standard error, in its language. A
// session's program ends as soon as its channel closes or its connection
// drops, or after a time without a key pressed. A session never acts on a
// table except through the API, so a refused, broken or vanished client
// leaves the tables as they were (a seat left alone plays on the turn
// clock).
package sshserve
