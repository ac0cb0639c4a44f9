// Package bot plays Farkle for a seat: one Strategy interface and levels
// from reckless to perfect. A bot sees only the state and the engine's legal
// actions (State.Legal) and returns one of them.
package bot
