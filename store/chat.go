package store

import "time"

// ChatLine is one message of a table's chat, kept with the table. A table
// has two channels, numbered together: its players' and its watchers'.
type ChatLine struct {
	TableID  string
	N        int // 1 for the table's first line; AddChat numbers them
	PlayerID string
	Name     string // the name shown at the table when it was said
	Text     string // plain text, never markup
	At       time.Time
	Watchers bool // said by a watcher, in the watchers' channel, which the players do not see
	Hidden   bool // hidden by a moderator: kept for the reports, shown to nobody
}
