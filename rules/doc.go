// Package rules holds the Farkle rule set as plain data: the presets of the
// published rule texts, loading of TOML and JSON rule files (with a preset as
// base and field overrides), validation that names the offending field, and
// a stable hash of the resolved rules. docs/RULES.md describes every option.
//
// Rules carries no game logic; dice/ builds scoring tables from it and
// engine/ plays by it.
package rules
