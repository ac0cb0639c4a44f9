package store

import (
	"encoding/json"
	"fmt"
	"time"
)

// Invitations and blocks. A free human seat kept for a player
// (Seat.Invited) is an invitation from the table's creator; it is open
// while the table waits and the seat is free. Each SQL store keeps an index
// of the open seats of each player (the seats it holds and the seats kept
// for it), in step with the tables whatever writes them, so that a player's
// open games, its invitations and the counts of invitations are read from
// that player's rows and never from every table.

// Block is a player's choice not to see another player's invitations:
// they are left out of what the blocker is shown, and the inviter is not
// told.
type Block struct {
	Blocker string
	Blocked string    // the player blocked
	Name    string    // the blocked player's name (Blocks fills it in)
	Created time.Time // when the block was made
}

// Prepare checks a block and fills in its time.
func (b Block) Prepare(now time.Time) (Block, error) {
	err := checkPair("block", b.Blocker, b.Blocked, &b.Created, now)
	return b, err
}

// checkPair refuses a relation (of verb) from a to b without either or
// from a player to itself (EINVALID), and fills in its time.
func checkPair(verb, a, b string, created *time.Time, now time.Time) error {
	if a == "" || b == "" {
		return Errorf(EINVALID, "a %s needs two players", verb)
	}
	if a == b {
		return Errorf(EINVALID, "a player cannot %s itself", verb)
	}
	if created.IsZero() {
		*created = now
	}
	return nil
}

// InvitationFilter selects the open invitations to count: those sent by
// Inviter, or those kept for Invitee (a Seat.Invited), leaving out those
// from players Invitee has blocked. Exactly one of the two is set.
type InvitationFilter struct {
	Inviter string
	Invitee string
}

// Check refuses a filter that does not set exactly one field (EINVALID).
func (f InvitationFilter) Check() error {
	if (f.Inviter == "") == (f.Invitee == "") {
		return Errorf(EINVALID, "count the invitations of an inviter or of an invitee, not both or neither")
	}
	return nil
}

// Decline returns the seats of a table in status st (as JSON) with every
// free seat kept for the player made an ordinary free seat (no name, not
// kept), and the seats freed; or the store's refusal: ENOTFOUND if no free
// seat is kept for the player, ECONFLICT if the table no longer waits.
func Decline(tableID string, st Status, seatsJSON, playerID string) (string, []int, error) {
	var seats []Seat
	if err := json.Unmarshal([]byte(seatsJSON), &seats); err != nil {
		return "", nil, fmt.Errorf("table %s seats: %w", tableID, err)
	}
	var freed []int
	for i, s := range seats {
		if playerID != "" && s.Invited == playerID && s.PlayerID == "" && s.Bot == "" {
			seats[i] = Seat{Clock: s.Clock}
			freed = append(freed, i)
		}
	}
	if len(freed) == 0 {
		return "", nil, Errorf(ENOTFOUND, "table %s keeps no seat for you: there is no invitation to decline", tableID)
	}
	if st != Waiting {
		return "", nil, Errorf(ECONFLICT, "table %s is %s: the invitation is no longer open", tableID, st.Phrase())
	}
	nj, _ := json.Marshal(seats)
	return string(nj), freed, nil
}

// OpenOnly reports whether statuses select only open tables (waiting or
// playing, and at least one of them): those the index of open seats holds.
func OpenOnly(statuses []Status) bool {
	for _, s := range statuses {
		if s != Waiting && s != Playing {
			return false
		}
	}
	return len(statuses) > 0
}

// Follow is a player's choice to follow another: the followed player is
// on the follower's list of friends, with their open games.
type Follow struct {
	Follower string
	Followed string    // the player followed
	Name     string    // the followed player's name (Following fills it in)
	Created  time.Time // when the follow was made
}

// Prepare checks a follow and fills in its time.
func (f Follow) Prepare(now time.Time) (Follow, error) {
	err := checkPair("follow", f.Follower, f.Followed, &f.Created, now)
	return f, err
}

// LoseOnTime returns the seats of a table (as JSON) with seat marked lost
// on time, or EINVALID if it is not a human seat.
func LoseOnTime(tableID, seatsJSON string, seat int) (string, error) {
	var seats []Seat
	if err := json.Unmarshal([]byte(seatsJSON), &seats); err != nil {
		return "", fmt.Errorf("table %s seats: %w", tableID, err)
	}
	if seat < 0 || seat >= len(seats) || seats[seat].Bot != "" {
		return "", Errorf(EINVALID, "table %s has no human seat %d", tableID, seat)
	}
	seats[seat].LostOnTime = true
	nj, _ := json.Marshal(seats)
	return string(nj), nil
}
