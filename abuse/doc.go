// Package abuse is the attack suite of the web game: its tests build the
// real farkle binary, start `farkle serve` on a fresh database and replay
// every known attack against it — rule values that overflow or ask a
// solver for more memory than the machine has, floods of tables, hints and
// connections, slow and idle connections, cross-site forms, damaged
// database files — checking that each is refused with a clear 4xx or
// absorbed, that the process stays alive with its memory bounded, that
// nothing acknowledged is lost, and that it restarts cleanly.
//
// The package has no code of its own; `go test ./abuse/` runs the suite.
package abuse
