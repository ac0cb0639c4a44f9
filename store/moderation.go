package store

import (
	"context"
	"net/netip"
	"time"
)

// Moderation: moderators (accounts an operator names with farkle admin,
// never through the public API) mute and ban players, hide chat lines,
// rename offensive names, close tables and read the players' reports.
// Every moderator's action is written with its entry in the audit log, in
// the same write.

// Moderator is an account allowed to moderate.
type Moderator struct {
	PlayerID string
	Name     string // the account's name
	Added    time.Time
}

// SanctionKind is what a sanction forbids.
type SanctionKind string

// The kinds of sanction.
const (
	Mute SanctionKind = "mute" // no chat
	Ban  SanctionKind = "ban"  // no chat, no new table, seat, rematch or tournament
)

// Sanction is a mute or a ban of a player (a guest or an account) or of
// an address range, until a time or until lifted.
type Sanction struct {
	ID       int64
	Kind     SanctionKind
	PlayerID string // the player sanctioned; "" for an address range
	Range    string // a CIDR prefix, masked ("203.0.113.0/24"); "" for a player
	Name     string // the player's name when sanctioned; "" for a range
	Reason   string
	By       string    // the moderator's player ID
	At       time.Time // when it was given
	Until    time.Time // zero: until lifted
	Lifted   time.Time // zero while it has not been lifted
}

// Holds reports whether the sanction is in force at the time.
func (s Sanction) Holds(at time.Time) bool {
	return s.Lifted.IsZero() && (s.Until.IsZero() || at.Before(s.Until))
}

// Covers reports whether the sanction is of the player or of a range
// holding the address (an invalid address is in no range).
func (s Sanction) Covers(playerID string, addr netip.Addr) bool {
	if s.Range == "" {
		return playerID != "" && s.PlayerID == playerID
	}
	p, err := netip.ParsePrefix(s.Range)
	return err == nil && addr.IsValid() && p.Contains(addr.Unmap())
}

// Report is a player's report of another player, or of one chat line.
type Report struct {
	ID       int64
	Reporter string // the player who reported
	PlayerID string // the player reported
	Name     string // the reported player's name when reported
	TableID  string // the table of the chat line; "" for a report of a player
	Line     int    // the chat line's number; 0 for a report of a player
	Text     string // the chat line's text as it was when reported
	Reason   string
	At       time.Time
	Closed   time.Time // zero while open
	ClosedBy string    // the moderator who closed it
}

// The actions of moderators, as the audit log names them.
const (
	ActMute    = "mute"
	ActBan     = "ban"
	ActLift    = "lift"
	ActHide    = "hide"
	ActRename  = "rename"
	ActClose   = "close"
	ActDismiss = "dismiss"
)

// AuditEntry is one moderator's action in the audit log: who, what, when
// and why.
type AuditEntry struct {
	ID         int64
	Moderator  string // the moderator's player ID
	Name       string // the moderator's name (read back; not written)
	Action     string // one of the Act constants
	Target     string // a player ID, an address range, a table ID, "TABLE#N" for a chat line, a report's "report N"
	TargetName string // the name of the player Target names, now (read back; not written); "" for another target
	Detail     string // what the action did beyond its target: "until 2026-12-02T10:00:00Z", the new name
	Reason     string
	At         time.Time
}

// Notice is a message to a player from the moderators, shown on its next
// page or WebSocket connection until it has been seen.
type Notice struct {
	ID       int64
	PlayerID string
	Kind     string // "renamed"
	OldName  string
	NewName  string
	Reason   string
	At       time.Time
}

// ReportFilter selects reports, newest first.
type ReportFilter struct {
	Open   bool  // only those not closed
	Before int64 // only IDs below this (the next page); 0: from the newest
	Limit  int   // 0: 50
}

// SanctionFilter selects sanctions, newest first.
type SanctionFilter struct {
	PlayerID string    // the player's own sanctions, and every range's
	At       time.Time // only those holding at the time; zero: all
	Limit    int       // 0: 100
}

// Moderation is the moderators, their actions and the players' reports.
type Moderation interface {
	// AddModerator makes the account of the player a moderator, from the
	// time. ENOTFOUND if the player has no account; ECONFLICT if it is a
	// moderator already.
	AddModerator(ctx context.Context, playerID string, at time.Time) error
	// RemoveModerator ends a moderator. ENOTFOUND if it is none.
	RemoveModerator(ctx context.Context, playerID string) error
	// Moderators lists the moderators, oldest first.
	Moderators(ctx context.Context) ([]Moderator, error)
	// IsModerator reports whether the player is a moderator.
	IsModerator(ctx context.Context, playerID string) (bool, error)

	// AddSanction stores a sanction and its audit entry in one write and
	// returns it numbered. ENOTFOUND if it is of a player that does not
	// exist; EINVALID unless it names exactly one of a player and a range.
	AddSanction(ctx context.Context, s Sanction, e AuditEntry) (Sanction, error)
	// LiftSanction ends a sanction at e.At, with its audit entry, in one
	// write. ENOTFOUND if none; ECONFLICT if it no longer holds.
	LiftSanction(ctx context.Context, id int64, e AuditEntry) error
	// Sanctions lists the sanctions f selects, newest first.
	Sanctions(ctx context.Context, f SanctionFilter) ([]Sanction, error)

	// HideChat hides a chat line (it is kept, for the reports), with its
	// audit entry, in one write. ENOTFOUND if no such line.
	HideChat(ctx context.Context, tableID string, n int, e AuditEntry) error
	// RenamePlayer gives the player a new name (its account's too), with
	// its audit entry and a notice to the player, in one write. ENOTFOUND
	// if no such player; ECONFLICT if another account has the name or one
	// that looks like it.
	RenamePlayer(ctx context.Context, playerID, name string, e AuditEntry) error
	// LogAction writes an audit entry of an action whose effect another
	// write made (a table closed).
	LogAction(ctx context.Context, e AuditEntry) error
	// AuditLog lists the audit log, newest first: the entries below the ID
	// before (0: from the newest), up to limit (0: 50).
	AuditLog(ctx context.Context, before int64, limit int) ([]AuditEntry, error)

	// AddReport stores a report and returns it numbered. An error wrapping
	// ErrOverLimit if (max > 0) the reporter made max reports at or after
	// since; ENOTFOUND if either player does not exist.
	AddReport(ctx context.Context, r Report, max int, since time.Time) (Report, error)
	// Reports lists the reports f selects, newest first.
	Reports(ctx context.Context, f ReportFilter) ([]Report, error)
	// CloseReport closes an open report with its audit entry (its
	// moderator closes it), in one write. ENOTFOUND if none; ECONFLICT if
	// it is closed already.
	CloseReport(ctx context.Context, id int64, e AuditEntry) error

	// Notices lists the player's notices not yet seen, oldest first, up to
	// limit.
	Notices(ctx context.Context, playerID string, limit int) ([]Notice, error)
	// SeeNotice marks the player's notice seen; no error if it was.
	// ENOTFOUND if the player has no such notice.
	SeeNotice(ctx context.Context, playerID string, id int64) error
}
