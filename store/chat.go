package store

import "time"

// ChatLine is one message of a table's chat, kept with the table.
type ChatLine struct {
	TableID  string
	N        int // 1 for the table's first line; AddChat numbers them
	PlayerID string
	Name     string // the name shown at the table when it was said
	Text     string // plain text, never markup
	At       time.Time
}
