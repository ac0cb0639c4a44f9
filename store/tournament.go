package store

import (
	"encoding/json"
	"time"

	"github.com/farkle/farkle/game"
)

// TournamentStatus is where a tournament is in its life.
type TournamentStatus string

// The statuses of a tournament.
const (
	TournamentOpen    TournamentStatus = "open"    // taking entrants
	TournamentPlaying TournamentStatus = "playing" // its rounds are being played
	TournamentOver    TournamentStatus = "over"    // finished, or cancelled (Reason says why)
)

// Entrant is one entrant of a tournament: a person or a bot.
type Entrant struct {
	PlayerID string `json:"player_id,omitempty"`
	Bot      string `json:"bot,omitempty"` // bot level
	Name     string `json:"name"`
}

// Tournament is a tournament: its settings, entrants and rounds. Its
// rounds (the pairings, their tables and results) are kept as JSON by the
// server (State); Version counts its writes.
type Tournament struct {
	ID       string
	Name     string
	Format   string // "round-robin", "swiss", "knockout" (package tournament)
	Kind     game.Kind
	Rules    json.RawMessage // the variant's rules, as a table holds them
	Pace     string          // as Table.Pace
	Clock    time.Duration   // each human seat's clock at its tables
	Rated    bool
	Size     int       // the entrants it takes, 3 to 64
	Start    time.Time // when it starts; zero: as soon as it is full
	Creator  string
	Status   TournamentStatus
	Reason   string // why it was cancelled, if it was
	Entrants []Entrant
	State    json.RawMessage // the rounds, as the server keeps them
	Version  int
	Created  time.Time
	Updated  time.Time
}
