package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/game"
)

// Error codes carried by *Error.
const (
	ENOTFOUND = "not_found" // no such player or table
	ECONFLICT = "conflict"  // the write lost a race or the table's state forbids it: a seat already taken, an action number already used, a table over
	EINVALID  = "invalid"   // the data cannot be stored as given
)

// Error is an error of a Store with a code for callers to act on. Its Msg
// is a sentence fit for a client: it names the table or player concerned
// and carries no package prefix.
type Error struct {
	Code string
	Msg  string
}

func (e *Error) Error() string { return "store: " + e.Msg }

// Message returns the message without the "store: " prefix, to be shown
// to a client.
func (e *Error) Message() string { return e.Msg }

// Message returns the client message of err if it is (or wraps) an *Error,
// else "".
func Message(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Msg
	}
	return ""
}

// Errorf returns an *Error with the code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// Code returns the code of err if it is (or wraps) an *Error, else "".
func Code(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// Status is where a table is in its life.
type Status string

// The statuses of a table.
const (
	Waiting Status = "waiting" // human seats still free; no action yet
	Playing Status = "playing"
	Over    Status = "over"
	// Failed: the table could not be loaded or its bots could not be
	// prepared (Table.Reason says why). It takes no more actions; its
	// actions and record stay readable.
	Failed Status = "failed"
	// Expired: a waiting table nobody joined in time. It takes no more
	// seats or actions.
	Expired Status = "expired"
	// Adjourned: a game against bots its player left long enough. It is
	// neither open (it counts against no cap and takes no action) nor
	// ended (it is never lost, rated or in stats): its player resumes
	// it (Resume), and it is playing again as it stood.
	Adjourned Status = "adjourned"
)

// Ended reports whether a table in status s takes no more actions: over,
// failed or expired.
func (s Status) Ended() bool { return s == Over || s == Failed || s == Expired }

// Player is a guest: a display name and the SHA-256 of the secret token
// it was made with (the token itself is never stored). That token is the
// player's first session; the player acts with any of its sessions.
type Player struct {
	ID        string
	Name      string
	TokenHash string // "" once the session of that token has ended
	Created   time.Time
}

// Seat is one seat of a table: a bot of a level, or a human seat that a
// player claims (PlayerID empty while free).
type Seat struct {
	Name     string `json:"name"`
	Bot      string `json:"bot,omitempty"` // bot level; empty for a human seat
	PlayerID string `json:"player_id,omitempty"`
	// Clock is the time a human seat has for each decision at a table with
	// a turn clock (0: none); the server acts for the seat when it runs out.
	Clock time.Duration `json:"clock,omitempty"`
	// Invited is the player a free human seat is kept for (an invitation
	// by name); only that player may take it.
	Invited string `json:"invited,omitempty"`
	// LostOnTime: the turn clock resigned the seat (its timeouts in a
	// row ran out at a table of people), which the pages say apart from
	// a resignation.
	LostOnTime bool `json:"lost_on_time,omitempty"`
}

// Table is one table: its game, seats, secret seed and progress.
type Table struct {
	ID      string
	Kind    game.Kind       // the game the table plays
	Rules   json.RawMessage // the variant's rules as a record holds them (game.Variant.Rules); they never change
	Seats   []Seat
	Seed    dice.Seed // secret until the game ends; never sent to clients before
	Status  Status
	Actions int // number of stored actions
	Created time.Time
	Updated time.Time
	Winners []int  // when Over
	Scores  []int  // when Over
	Reason  string // why the table is Failed or Expired; "" otherwise
	Creator string // the ID of the player who created the table; "" for a table stored before creators were kept
	Rated   bool   // the creator asked for a rated game (house rules are unrated otherwise)
	Pace    string // "" for a live game; "1h", "12h", "1d" or "3d" for a game at your own pace (each seat's Clock holds the time)
	// Local: a game played on a device by itself (the web page's local
	// games, offline or not) and uploaded when it was over: stored whole
	// and over, unrated, its results in no stats. Its human seats without
	// a PlayerID were people at the same device (hot seat).
	Local bool
	// Tournament is the ID of the tournament the table's game is played
	// for; "" for a table of no tournament.
	Tournament string
}

// Commitment returns the SHA-256 commitment of the table's seed.
func (t *Table) Commitment() string { return t.Seed.Commitment() }

// Variant opens the table's variant from its kind and rules.
func (t *Table) Variant() (game.Variant, error) { return game.Open(t.Kind, t.Rules) }

// Result is one seat's line in a finished game of any kind, for stats.
// Players are keyed by PlayerKey: a guest's ID, or "bot:LEVEL" for a bot.
// Score is the variant's score (Dragon Farkle: soldiers); the counts a
// variant does not keep are zero.
type Result struct {
	Seat      int
	PlayerKey string
	Name      string
	Score     int
	Won       bool
	Turns     int
	Farkles   int
	Banked    int
	BestTurn  int
	Penalties int
}

// Finish is what is written with the last action of a game.
type Finish struct {
	Record  *game.Record // the complete record with the seed revealed
	Winners []int
	Scores  []int
	Results []Result
}

// Stats sums a player's finished games.
type Stats struct {
	PlayerKey string
	Name      string // the latest name used
	Games     int
	Wins      int
	Turns     int
	Farkles   int
	Banked    int
	BestTurn  int
	Account   bool // the player has an account (a guest otherwise, or a bot)
	Score     int  // the variant's scores summed (Dragon Farkle: soldiers)
	BestScore int  // the best of them
}

// ScorePerGame returns the mean score a game.
func (s Stats) ScorePerGame() float64 { return ratio(s.Score, s.Games) }

// WinRate returns wins per game (0 with no games).
func (s Stats) WinRate() float64 { return ratio(s.Wins, s.Games) }

// PointsPerTurn returns the mean banked points per turn started.
func (s Stats) PointsPerTurn() float64 { return ratio(s.Banked, s.Turns) }

// FarkleRate returns the share of turns that ended in a farkle.
func (s Stats) FarkleRate() float64 { return ratio(s.Farkles, s.Turns) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// TableFilter selects tables for listing; zero fields select all.
type TableFilter struct {
	Status   []Status
	PlayerID string // tables where this player holds a seat
	Creator  string // tables this player created
	Local    bool   // only local games (Table.Local)
	// ResultOf: tables with a result of this player key (a finished game
	// it played: a bot's, "bot:LEVEL", too), read by the results' index.
	ResultOf string
	Limit    int // 0: a default of 100; CountTables ignores it
}

// Store persists the web game: the interfaces of its concerns, composed,
// so that a caller may depend on the part it uses. Every method is safe
// for concurrent use. Writes are atomic: after an error nothing was
// written.
type Store interface {
	Players
	Accounts
	Tables
	Results
	Invitations
	Ratings
	Tournaments
	Chat
	Moderation
	Follows

	// Health proves a round trip to the database that includes a write
	// (one small row rewritten, then read back): it fails when the
	// database cannot be reached, read or written.
	Health(ctx context.Context) error

	// Close releases the store.
	Close() error
}

// Players are the guests and the SSH keys tied to them.
type Players interface {
	// CreatePlayer stores a new guest with the session of its token
	// (p.TokenHash), in one write. ECONFLICT if the ID or the token hash
	// exists.
	CreatePlayer(ctx context.Context, p Player) error
	// PlayerByToken returns the player of the session whose token hashes
	// to tokenHash (SessionByToken), ENOTFOUND if none.
	PlayerByToken(ctx context.Context, tokenHash string) (Player, error)
	// Player returns the player with the ID, ENOTFOUND if none.
	Player(ctx context.Context, id string) (Player, error)
	// AddKey ties an SSH public key, by its SHA256 fingerprint, to a
	// player: the key signs in as that player from then on. ECONFLICT if
	// the key is already a player's; ENOTFOUND if the player is not.
	AddKey(ctx context.Context, fingerprint, playerID string) error
	// PlayerByKey returns the player an SSH key's fingerprint is tied to,
	// ENOTFOUND if none.
	PlayerByKey(ctx context.Context, fingerprint string) (Player, error)

	// ExpireGuests deletes, with their sessions and in one write, up to
	// limit of the guests made before the time that nothing keeps, oldest
	// first, and returns how many it deleted. Nothing keeps a guest that
	// no session of which was seen at or after the time, and that has no
	// account, no SSH key, no seat, invitation or creation of a table, no
	// result, rating or chat line, no tournament it made or entered, no
	// block by or of it, and no sanction, report (made or of it) or
	// notice; a guest that has had any of these is kept for good.
	ExpireGuests(ctx context.Context, before time.Time, limit int) (int, error)
}

// Tables are the tables of every kind and their actions.
type Tables interface {
	// CreateTable stores a new table with no actions. ECONFLICT if the ID
	// exists; EINVALID without seats.
	CreateTable(ctx context.Context, t Table) error
	// Table returns the table, ENOTFOUND if none.
	Table(ctx context.Context, id string) (Table, error)
	// Tables lists tables matching f, most recently updated first.
	Tables(ctx context.Context, f TableFilter) ([]Table, error)
	// CountTables counts the tables matching f (f.Limit is ignored)
	// without loading them.
	CountTables(ctx context.Context, f TableFilter) (int, error)
	// ClaimSeat gives seat to player while it is a free human seat of a
	// waiting table, with the name shown for it; when status is not empty
	// the table moves to it in the same write. ECONFLICT if the seat is
	// taken, a bot, or the table is not waiting; ENOTFOUND if no table.
	ClaimSeat(ctx context.Context, tableID string, seat int, playerID, name string, status Status) error

	// FailTable marks a waiting or playing table Failed with the reason,
	// in one write. ENOTFOUND if no table; ECONFLICT if it has already
	// ended (over, failed or expired). Its actions stay readable.
	FailTable(ctx context.Context, id, reason string) error
	// ExpireWaiting marks Expired, with the reason, every waiting table
	// last updated before the time, in one write, and returns their IDs.
	ExpireWaiting(ctx context.Context, before time.Time, reason string) ([]string, error)
	// ExpireIdle marks Expired, with the reason, the waiting or playing
	// table id if it was last updated before the time, in one write (a
	// tournament's game nobody acts at). ENOTFOUND if no table; ECONFLICT
	// if it has ended or changed since.
	ExpireIdle(ctx context.Context, id string, before time.Time, reason string) error

	// AppendAction stores the action numbered n (1 for the first) of a
	// playing or waiting table, as its record holds it (game.Variant.Entry), which must have exactly n-1 actions
	// (ECONFLICT otherwise: nothing is lost or doubled; ECONFLICT too if
	// the table has ended). A waiting table becomes playing; with fin the
	// table becomes over and the results are stored, all in one
	// transaction. The action is durable when AppendAction returns.
	// EINVALID if the entry is not JSON.
	AppendAction(ctx context.Context, tableID string, n int, entry json.RawMessage, fin *Finish) error
	// LoseOnTime marks the seat of the table lost on time
	// (Seat.LostOnTime), in one write, whatever the table's status (the
	// mark follows the resignation it explains, which may have ended the
	// game). ENOTFOUND if no table; EINVALID if no such human seat.
	LoseOnTime(ctx context.Context, tableID string, seat int) error
	// Adjourn marks the playing table Adjourned if it still has actions
	// actions (nobody acted since they were counted), in one write.
	// ENOTFOUND if no table; ECONFLICT if it is not playing or changed.
	Adjourn(ctx context.Context, id string, actions int) error
	// Resume makes the adjourned table playing again, in one write.
	// ENOTFOUND if no table; ECONFLICT if it is not adjourned.
	Resume(ctx context.Context, id string) error
	// Actions returns the table's actions in order, as stored.
	Actions(ctx context.Context, tableID string) ([]json.RawMessage, error)
	// ActionsFrom returns the table's actions numbered from on (the first
	// is 1), in order, as stored: a node that follows another's play reads
	// only what it has not played.
	ActionsFrom(ctx context.Context, tableID string, from int) ([]json.RawMessage, error)
	// FinalRecord returns the record stored when the game ended (records
	// stored in an older format are read as game.ParseRecord reads them),
	// ENOTFOUND if the table does not exist or is not over.
	FinalRecord(ctx context.Context, tableID string) (*game.Record, error)
}

// Results are the sums of the players' finished games.
type Results interface {
	// Stats returns the sums of the player's finished games (zero counts if
	// none).
	Stats(ctx context.Context, playerKey string) (Stats, error)
	// Leaderboard returns up to limit players with at least minGames games
	// of the kind (every kind if ""), by wins, then win rate, then games.
	Leaderboard(ctx context.Context, kind game.Kind, minGames, limit int) ([]Stats, error)
}

// Accounts are the players' accounts, passkeys and sessions, and the
// server's passkey challenges and secrets.
type Accounts interface {
	// CreateAccount makes the player an account with its first passkey,
	// in one write, and gives the player the account's name; every
	// earlier session of the player ends (a guest's token stops working)
	// and s becomes its first session as an account. ENOTFOUND if no such
	// player; ECONFLICT if the player already is an account, or another
	// account has the name or one that looks like it (compared by NameKey
	// and by NameLooks), or the passkey is already stored.
	CreateAccount(ctx context.Context, a Account, first Passkey, s Session) error
	// Account returns the account of the player, ENOTFOUND if it has none.
	Account(ctx context.Context, playerID string) (Account, error)
	// AccountByName returns the account of that name (by NameKey),
	// ENOTFOUND if none.
	AccountByName(ctx context.Context, name string) (Account, error)
	// HaveAccounts returns which of the players ids have an account, in
	// one read (the callers bound ids).
	HaveAccounts(ctx context.Context, ids []string) (map[string]bool, error)
	// AccountLike returns an account whose name is name or looks like it
	// (by NameKey or either skeleton of NameLooks), ENOTFOUND if none.
	AccountLike(ctx context.Context, name string) (Account, error)
	// AddPasskey adds a passkey to the player's account. ENOTFOUND if the
	// player has no account; ECONFLICT if the passkey is already stored,
	// or (max > 0) the account already has max passkeys.
	AddPasskey(ctx context.Context, p Passkey, max int) error
	// Passkey returns the passkey with the credential ID, ENOTFOUND if none.
	Passkey(ctx context.Context, id string) (Passkey, error)
	// Passkeys lists the passkeys of the player's account, oldest first.
	Passkeys(ctx context.Context, playerID string) ([]Passkey, error)
	// UsePasskey records a sign-in with the passkey: its credential (the
	// signature counter moves) and the time. ENOTFOUND if none.
	UsePasskey(ctx context.Context, id string, credential json.RawMessage, at time.Time) error
	// RemovePasskey removes a passkey of the player's account. ENOTFOUND
	// if the player has no such passkey; ECONFLICT if it is the last one
	// (an account keeps at least one).
	RemovePasskey(ctx context.Context, playerID, id string) error
	// ReplaceRecovery replaces the account's recovery code hash old by
	// next in one write, so that a code works once, ends every session of
	// the player and stores s as its only one: ECONFLICT if the stored
	// hash is not old (the code was used already); ENOTFOUND if the player
	// has no account.
	ReplaceRecovery(ctx context.Context, playerID, old, next string, s Session) error

	// CreateSession stores a session of the player (Session.Prepare fills
	// it in); with max > 0 the player's sessions beyond max end, least
	// recently seen first, in the same write. ECONFLICT if the token hash
	// exists; ENOTFOUND if no such player.
	CreateSession(ctx context.Context, s Session, max int) error
	// SessionByToken returns the session whose token hashes to tokenHash
	// and its player, ENOTFOUND if none.
	SessionByToken(ctx context.Context, tokenHash string) (Session, Player, error)
	// Sessions lists the player's sessions, most recently seen first.
	Sessions(ctx context.Context, playerID string) ([]Session, error)
	// TouchSession sets the session's last seen time to at, if it is
	// later; no error if the session is gone.
	TouchSession(ctx context.Context, tokenHash string, at time.Time) error
	// DeleteSession ends the session of the token (signing out); no
	// error if none.
	DeleteSession(ctx context.Context, tokenHash string) error
	// EndSession ends the player's session of the ID. ENOTFOUND if the
	// player has no such session.
	EndSession(ctx context.Context, playerID, id string) error
	// EndSessions ends every session of the player but the one of the
	// token hash except ("" keeps none) and returns how many ended.
	EndSessions(ctx context.Context, playerID, except string) (int, error)

	// SpendChallenge records that owner answered the passkey challenge
	// key, until expires (when the challenge is refused anyway), so that
	// an answer counts once; records expired by now are dropped first.
	// ECONFLICT if key was spent already; an error wrapping ErrOverLimit
	// if (max > 0) owner already has max unexpired records. Any node may
	// spend; two spending the same key at once: one wins.
	SpendChallenge(ctx context.Context, key, owner string, expires time.Time, max int) error
	// Secret returns the server's secret of the name: 32 random bytes,
	// made the first time it is asked for and the same for every node
	// on the store from then on.
	Secret(ctx context.Context, name string) ([]byte, error)
}

// Chat is the tables' chat.
type Chat interface {
	// AddChat stores a line of a table's chat and returns it numbered
	// (one more than the table's last line, of either channel). ENOTFOUND
	// if no table; ECONFLICT if the line's channel of the table already
	// holds max lines.
	AddChat(ctx context.Context, line ChatLine, max int) (ChatLine, error)
	// Chat returns the last limit lines of the table's players' channel,
	// oldest first, hidden ones included (marked).
	Chat(ctx context.Context, tableID string, limit int) ([]ChatLine, error)
	// WatchersChat returns the last limit lines of the table's watchers'
	// channel, as Chat.
	WatchersChat(ctx context.Context, tableID string, limit int) ([]ChatLine, error)
	// ChatLineAt returns the line n of the table's chat, of either
	// channel. ENOTFOUND if none.
	ChatLineAt(ctx context.Context, tableID string, n int) (ChatLine, error)
}

// Invitations are the seats kept for a player and the blocks between
// players.
type Invitations interface {
	// Invitations returns the waiting tables with a free seat kept for the
	// player (Seat.Invited), newest first, up to limit (0: 100), leaving out
	// those created by a player the player blocks. It reads the index of
	// the player's open seats (invite.go), not every table.
	Invitations(ctx context.Context, playerID string, limit int) ([]Table, error)
	// CountInvitations counts the open invitations f selects, from the
	// same index. EINVALID unless f sets exactly one field.
	CountInvitations(ctx context.Context, f InvitationFilter) (int, error)
	// DeclineInvitation frees every seat the waiting table keeps for the
	// player (each becomes an ordinary free seat) in one write, and
	// returns them. ENOTFOUND if the table keeps no free seat for the
	// player (or there is no such table); ECONFLICT if it no longer waits.
	DeclineInvitation(ctx context.Context, tableID, playerID string) ([]int, error)
	// Block stores a block (again: nothing changes). ENOTFOUND if either
	// player does not exist; EINVALID for a player blocking itself;
	// ECONFLICT if max > 0 and the blocker already blocks max players.
	Block(ctx context.Context, b Block, max int) error
	// Unblock removes a block; no error if there is none.
	Unblock(ctx context.Context, blocker, blocked string) error
	// Blocks lists the players blocker blocks with their names, the
	// latest first, up to limit (0: 100).
	Blocks(ctx context.Context, blocker string, limit int) ([]Block, error)
}

// Follows are the players each player follows (a list of friends).
type Follows interface {
	// Follow stores a follow (again: nothing changes). ENOTFOUND if
	// either player does not exist; EINVALID for a player following
	// itself; ECONFLICT if max > 0 and the follower already follows max
	// players.
	Follow(ctx context.Context, f Follow, max int) error
	// Unfollow removes a follow; no error if there is none.
	Unfollow(ctx context.Context, follower, followed string) error
	// Following lists the players follower follows with their names, the
	// latest first, up to limit (0: 100).
	Following(ctx context.Context, follower string, limit int) ([]Follow, error)
	// FollowedGames lists the open (waiting or playing) tables where a
	// player that follower follows holds a seat, most recently updated
	// first, up to limit (0: 100), from the index of open seats.
	FollowedGames(ctx context.Context, follower string, limit int) ([]Table, error)
}

// Tournaments are the tournaments and their state.
type Tournaments interface {
	// CreateTournament stores a new tournament at version 1. ECONFLICT if
	// the ID exists; EINVALID without an ID or format.
	CreateTournament(ctx context.Context, t Tournament) error
	// Tournament returns the tournament, ENOTFOUND if none.
	Tournament(ctx context.Context, id string) (Tournament, error)
	// Tournaments lists up to limit tournaments in the statuses (all if
	// none), most recently updated first.
	Tournaments(ctx context.Context, status []TournamentStatus, limit int) ([]Tournament, error)
	// CountTournaments counts the tournaments in the statuses (all if
	// none) that creator created (anyone's if ""), without loading them.
	CountTournaments(ctx context.Context, status []TournamentStatus, creator string) (int, error)
	// UpdateTournament writes t (its status, reason, entrants and state)
	// if the stored version is t.Version, and returns the version
	// written, one more. ECONFLICT if another write came first (read again
	// and retry); ENOTFOUND if none.
	UpdateTournament(ctx context.Context, t Tournament) (int, error)
}

// Ratings are the players' ratings by family and their history.
type Ratings interface {
	// Ratings returns the current ratings in the family of those of keys
	// that have one; a player with no rated game is absent.
	Ratings(ctx context.Context, family string, keys []string) (map[string]Rating, error)
	// RateGame stores the rating changes of one finished game (every
	// change of the same table and family) in one write: each player's
	// rating becomes its After and its count of games grows by one, and
	// the changes are kept for the history. ECONFLICT if the table was
	// already rated, or a player that is not Fixed no longer has Games
	// rated games (another game was rated since its Before was read: read
	// again and retry); EINVALID if the changes are empty or mixed.
	RateGame(ctx context.Context, changes []RatingChange) error
	// RatingLeaderboard returns up to limit players of the family by
	// rating, highest first (ties: fewer deviation, then key), with at
	// least minGames rated games.
	RatingLeaderboard(ctx context.Context, family string, minGames, limit int) ([]Rating, error)
	// RatingHistory returns the player's last limit rating changes in the
	// family, oldest first.
	RatingHistory(ctx context.Context, playerKey, family string, limit int) ([]RatingChange, error)
	// TableRatings returns the rating changes of the game at the table,
	// by player key; none if it was not rated.
	TableRatings(ctx context.Context, tableID string) ([]RatingChange, error)
}

// Phrase says the status in a sentence "table t is ...".
func (s Status) Phrase() string {
	switch s {
	case Waiting:
		return "waiting for players"
	case Playing:
		return "in play"
	case Over:
		return "over"
	case Failed:
		return "failed"
	case Expired:
		return "expired"
	case Adjourned:
		return "adjourned"
	}
	return string(s)
}
