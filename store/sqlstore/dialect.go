package sqlstore

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Dialect is what differs between the SQL the two databases speak, in one
// place. The store writes each statement once, with ? for its arguments
// (in order; an argument used twice is passed twice) and these words in
// braces, which SQL rewrites for the database:
//
//	{true} {false}      the booleans (SQLite keeps 1 and 0)
//	{for update}        lock the rows read until the transaction ends
//	{skip locked}       lock them, skipping rows another holds
//	{index NAME}        read through the index NAME (SQLite's INDEXED BY)
//	{unindexed COL}     compare COL without its index (SQLite's +COL)
//	{seat holder}       the table's seats hold the player ? (SeatArg)
//	{offset}            every row after the first ?
//
// PostgreSQL locks rows and takes advisory locks (Lock); SQLite has one
// writer, whose transactions begin IMMEDIATE, so it needs neither.
type Dialect struct {
	// Name prefixes the errors of the database ("sqlite", "postgres").
	Name string
	// Numbered: the arguments are $1, $2, ... rather than ?.
	Numbered bool
	// Words are the rewrites of the words in braces with no argument.
	Words map[string]string
	// Index rewrites {index NAME}, Unindexed {unindexed COL}.
	Index, Unindexed func(string) string
	// SeatArg is the argument of {seat holder} for a player.
	SeatArg func(playerID string) any
	// IsUnique and IsForeignKey tell a write refused by a unique key or
	// by a foreign key.
	IsUnique, IsForeignKey func(error) bool
	// Lock is the SQL taking the advisory lock of its two arguments (a
	// space and a key) until the transaction ends; "" when transactions
	// run one at a time anyway.
	Lock string

	cache sync.Map // statement as written → as the database reads it
}

// maxCached is the longest statement whose rewrite is kept: the long
// ones (many rows or arguments to a statement) vary in length, and are
// rewritten each time rather than kept without bound.
const maxCached = 2048

var word = regexp.MustCompile(`\{(?:(index|unindexed) ([a-z_]+)|([a-z ]+))\}`)

// SQL returns the statement q as the database reads it.
func (d *Dialect) SQL(q string) string {
	if s, ok := d.cache.Load(q); ok {
		return s.(string)
	}
	s := word.ReplaceAllStringFunc(q, func(w string) string {
		m := word.FindStringSubmatch(w)
		switch m[1] {
		case "index":
			return d.Index(m[2])
		case "unindexed":
			return d.Unindexed(m[2])
		}
		if r, ok := d.Words[m[3]]; ok {
			return r
		}
		panic("sqlstore: unknown word " + w + " in " + q)
	})
	if d.Numbered {
		var b strings.Builder
		n := 0
		for _, r := range s {
			if r == '?' {
				n++
				b.WriteString("$" + strconv.Itoa(n))
				continue
			}
			b.WriteRune(r)
		}
		s = b.String()
	}
	if len(q) <= maxCached {
		d.cache.Store(q, s)
	}
	return s
}

// In returns "(?, ?, ...)" for n arguments (n > 0), and the arguments of
// vs.
func In[T any](vs []T) (string, []any) {
	args := make([]any, len(vs))
	for i, v := range vs {
		args[i] = v
	}
	return "(?" + strings.Repeat(", ?", len(vs)-1) + ")", args
}
