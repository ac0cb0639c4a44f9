package server_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/store"
)

// fourBots is the body of a round-robin of four bots, full at its creation
// (it starts at once: its first round opens two bots-only tables).
func fourBots(name string) map[string]any {
	bots := make([]map[string]string, 4)
	for i := range bots {
		bots[i] = map[string]string{"type": "bot", "level": "steady"}
	}
	return map[string]any{"name": name, "format": "round-robin", "rules": shortRules, "size": 4, "entrants": bots}
}

// TestTournamentPairingHoldsNoGlobalLock: the creation of a tournament
// never holds a lock of all tournaments while it pairs and opens tables
// (issue 23: each creation held the global lock ~7 s, holding up every
// other). Ann's creation is stopped in the middle of its pairing, one
// table opened and the next about to be, and held there; meanwhile other
// players create a tournament that pairs and opens its own tables, join
// one so that it fills and starts, and list and read the tournaments,
// Ann's included: each is answered while hers still waits. Were a lock of
// all tournaments (the one that keeps their caps, or a single lock for
// every tournament's changes) held across the pairing, these would wait
// for Ann's and run into their deadline.
func TestTournamentPairingHoldsNoGlobalLock(t *testing.T) {
	ts := start(t, "", server.Options{BotDelay: time.Hour}) // the bots never move: no game ends meanwhile
	ctx := ctxT(t, 2*time.Minute)
	bea, cy, dan := newPlayer(t, ts, "Bea"), newPlayer(t, ts, "Cy"), newPlayer(t, ts, "Dan")
	var beas tourJSON // Bea and two bots; Cy's join fills it
	if err := bea.Do(ctx, "POST", "/api/tournaments", map[string]any{"name": "Bea's", "format": "round-robin", "rules": shortRules, "size": 4,
		"entrants": []map[string]string{{"type": "me"}, {"type": "bot", "level": "steady"}, {"type": "bot", "level": "steady"}}}, &beas); err != nil {
		t.Fatal(err)
	}

	reached, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free) // before the server stops, should the test fail while Ann's creation waits
	var stopped sync.Once
	defer ts.Srv.BeforeOpenGame(func(tr store.Tournament, game int) {
		if tr.Name == "Ann's" && game == 1 { // the first table open, the second next
			stopped.Do(func() {
				close(reached)
				<-release
			})
		}
	})()
	ann := newPlayer(t, ts, "Ann")
	created := make(chan error, 1)
	var anns tourJSON
	go func() { created <- ann.Do(ctx, "POST", "/api/tournaments", fourBots("Ann's"), &anns) }()
	select {
	case <-reached:
	case err := <-created:
		t.Fatalf("Ann's creation answered (%v) without opening its second table", err)
	case <-ctx.Done():
		t.Fatal("Ann's creation never reached its second table")
	}

	// Each request of the others has 20 s, time enough on any machine:
	// it waits on nothing Ann's creation holds, or for ever.
	other := func(what string, do func(ctx context.Context) error) {
		t.Helper()
		ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		if err := do(ctx); err != nil {
			t.Fatalf("%s while Ann's creation is in the middle of its pairing: %v", what, err)
		}
	}
	var dans tourJSON
	other("Dan creates a tournament that opens its tables", func(ctx context.Context) error {
		return dan.Do(ctx, "POST", "/api/tournaments", fourBots("Dan's"), &dans)
	})
	if dans.Status != "playing" || len(dans.Rounds) != 1 || !opened(dans) {
		t.Fatalf("Dan's tournament: %+v", dans)
	}
	var joined tourJSON
	other("Cy joins Bea's tournament, which fills and starts", func(ctx context.Context) error {
		return cy.Do(ctx, "POST", "/api/tournaments/"+beas.ID+"/join", map[string]any{}, &joined)
	})
	if joined.Status != "playing" || len(joined.Rounds) != 1 || !opened(joined) {
		t.Fatalf("Bea's tournament after Cy's join: %+v", joined)
	}
	var list []struct{ ID, Name, Status string }
	other("Dan lists the tournaments", func(ctx context.Context) error {
		return dan.Do(ctx, "GET", "/api/tournaments", nil, &list)
	})
	annsID := ""
	for _, tr := range list {
		if tr.Name == "Ann's" {
			annsID = tr.ID
		}
	}
	if len(list) != 3 || annsID == "" {
		t.Fatalf("the list while Ann's creation waits: %+v", list)
	}
	var mid tourJSON
	other("Dan reads Ann's tournament", func(ctx context.Context) error {
		return dan.Do(ctx, "GET", "/api/tournaments/"+annsID, nil, &mid)
	})
	if mid.Status != "playing" || len(mid.Rounds) != 1 || len(mid.Rounds[0]) != 2 { // paired and stored; its tables noted once open
		t.Fatalf("Ann's tournament in the middle of its pairing: %+v", mid)
	}
	select {
	case err := <-created:
		t.Fatalf("Ann's creation answered (%v) while held", err)
	default:
	}

	free()
	if err := <-created; err != nil {
		t.Fatal(err)
	}
	if anns.ID != annsID || anns.Status != "playing" || len(anns.Rounds) != 1 || !opened(anns) {
		t.Fatalf("Ann's tournament once let go: %+v", anns)
	}
}
