package sqlite

import (
	"fmt"
	"strings"
)

// Options tune how OpenWith opens the database; the zero Options are the
// defaults Open uses.
type Options struct {
	// Synchronous is SQLite's synchronous mode: "FULL" (the default: an
	// action is on disk, surviving a power loss, when AppendAction
	// returns), "EXTRA", or "NORMAL" (faster; an operating system crash or
	// power loss may lose the last commits).
	Synchronous string
	// WALLimit is the size in bytes past which the write-ahead log is
	// checkpointed and restarted (a RESTART checkpoint, which holds
	// commits back for at most a fraction of a second while readers
	// finish), also set as journal_size_limit. Commits wait for a
	// checkpoint only when the WAL passes 4 × WALLimit, which bounds the
	// file. 0: a default of 16 MiB.
	WALLimit int64
	// Check is the check of the file Open runs before using it: "quick"
	// (the default, PRAGMA quick_check: every page and record is well
	// formed), "full" (PRAGMA integrity_check, which also checks that
	// indexes match their tables; slower) or "off".
	Check string
	// MaxBytes caps the size of the database file (PRAGMA max_page_count,
	// in 4 KiB pages);
	// a write past it fails as on a full disk. 0: no cap.
	MaxBytes int64
	// ReadOnly opens the file read-only (mode=ro): every write fails, and
	// Open fails if a migration is due. For tests of a file that cannot be
	// written.
	ReadOnly bool
}

// The defaults of Options.
const (
	DefaultWALLimit = 16 << 20
	DefaultCheck    = "quick"
)

// withDefaults fills the zero fields and validates the others.
func (o Options) withDefaults() (Options, error) {
	o.Synchronous = strings.ToUpper(o.Synchronous)
	switch o.Synchronous {
	case "":
		o.Synchronous = "FULL"
	case "FULL", "EXTRA", "NORMAL":
	default:
		return o, fmt.Errorf("sqlite: synchronous %q: want FULL, EXTRA or NORMAL", o.Synchronous)
	}
	if o.WALLimit < 0 {
		return o, fmt.Errorf("sqlite: WAL limit %d: want a size in bytes, at least 0", o.WALLimit)
	}
	if o.WALLimit == 0 {
		o.WALLimit = DefaultWALLimit
	}
	switch o.Check {
	case "":
		o.Check = DefaultCheck
	case "quick", "full", "off":
	default:
		return o, fmt.Errorf("sqlite: check %q: want quick, full or off", o.Check)
	}
	if o.MaxBytes < 0 {
		return o, fmt.Errorf("sqlite: max bytes %d: want a size in bytes, at least 0 (0: no cap)", o.MaxBytes)
	}
	return o, nil
}
