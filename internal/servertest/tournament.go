package servertest

import (
	"context"
	"testing"
	"time"

	"github.com/farkle/farkle/server/wsclient"
)

// BotEntrants returns n bot entrants of the level.
func BotEntrants(n int, level string) []map[string]string {
	out := make([]map[string]string, n)
	for i := range out {
		out[i] = map[string]string{"type": "bot", "level": level}
	}
	return out
}

// NewTournament creates a tournament of the entrants, failing the test unless it
// is created.
func NewTournament(t *testing.T, ctx context.Context, c *wsclient.Client, format string, size int, entrants []map[string]string) Tournament {
	t.Helper()
	var tr Tournament
	body := map[string]any{"name": "Cup", "format": format, "rules": ShortRules, "size": size, "entrants": entrants}
	if err := c.Do(ctx, "POST", "/api/tournaments", body, &tr); err != nil {
		t.Fatal(err)
	}
	return tr
}

type Tournament struct {
	ID        string
	Status    string
	Reason    string
	Size      int
	Champion  *string
	Total     int `json:"total_rounds"`
	Entrants  []struct{ Name, Bot string }
	Standings []struct {
		Entrant                               int
		Name                                  string
		Played, Wins, Draws, Losses, Forfeits int
		For, Against, Diff                    int
	}
	Rounds [][]TournamentGame
}

type TournamentGame struct {
	A, B      int
	AName     string `json:"a_name"`
	BName     string `json:"b_name"`
	Table     string
	Done      bool
	PA, PB    int
	Winner    int
	WaitingOn string `json:"waiting_on"`
	Pending   bool
	Forfeit   string
	Why       string
	Void      bool
}

func GetTournament(t *testing.T, ctx context.Context, c *wsclient.Client, id string) Tournament {
	t.Helper()
	var tr Tournament
	if err := c.Do(ctx, "GET", "/api/tournaments/"+id, nil, &tr); err != nil {
		t.Fatal(err)
	}
	return tr
}

// WaitTournament polls the tournament until ok says so.
func WaitTournament(t *testing.T, ctx context.Context, c *wsclient.Client, id string, ok func(Tournament) bool) Tournament {
	t.Helper()
	for {
		tr := GetTournament(t, ctx, c, id)
		if ok(tr) {
			return tr
		}
		select {
		case <-ctx.Done():
			t.Fatalf("tournament %s never got there: %+v", id, tr)
		case <-time.After(20 * time.Millisecond): // polling the API
		}
	}
}
