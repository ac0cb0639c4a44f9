package server_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/server/wsclient"
)

// benchTourOptions lift the caps a tournament of 64 bots meets, so that
// its creation opens its whole first round (32 tables).
var benchTourOptions = server.Options{MaxOpenTables: -1, MaxBotTables: -1, MaxTablesTotal: -1, MaxBotTablesTotal: -1, MaxTournamentBots: -1}

// BenchmarkTournamentLock creates round-robin tournaments of 64 expert
// bots (the table caps off, so each opens its first round of 32 tables).
// "alone" reports the creation's time (create-ms) with nothing else asked
// of the server; "other" the longest another player's request took
// meanwhile (other-max-ms), she asking again and again to join a small
// tournament she is already in: how long a creation keeps everyone
// else's tournaments waiting. "busy": the bots of the tournaments created
// play at full speed, loading the database as the flood of issue 23 did;
// "idle": they never move.
func BenchmarkTournamentLock(b *testing.B) {
	for _, load := range []struct {
		name  string
		delay time.Duration
	}{{"idle", time.Hour}, {"busy", 0}} {
		for _, other := range []bool{false, true} {
			name := load.name + "/alone"
			if other {
				name = load.name + "/other"
			}
			b.Run(name, func(b *testing.B) {
				opt := benchTourOptions
				opt.BotDelay = load.delay
				benchTournamentLock(b, opt, other)
			})
		}
	}
}

func benchTournamentLock(b *testing.B, opt server.Options, withOther bool) {
	ts := start(b, "", opt)
	ctx := context.Background()
	other := host(b, ts)
	var small tourJSON
	if err := other.Do(ctx, "POST", "/api/tournaments", map[string]any{"name": "Small", "format": "swiss", "rules": shortRules, "size": 4,
		"start": time.Now().Add(time.Hour).UTC().Format(time.RFC3339), "entrants": []map[string]string{{"type": "me"}}}, &small); err != nil {
		b.Fatal(err)
	}
	bots := make([]map[string]string, 64)
	for i := range bots {
		bots[i] = map[string]string{"type": "bot", "level": "expert"}
	}
	var create, worst time.Duration
	b.ResetTimer()
	for i := range b.N {
		c := wsclient.New(ts.URL)
		if _, _, err := c.NewPlayer(ctx, fmt.Sprintf("Big %d", i)); err != nil {
			b.Fatal(err)
		}
		done := make(chan struct{})
		var wg sync.WaitGroup
		if withOther {
			wg.Add(1)
			go func() { // the other player, until the creation is answered
				defer wg.Done()
				for {
					t0 := time.Now()
					if err := other.Do(ctx, "POST", "/api/tournaments/"+small.ID+"/join", map[string]any{}, nil); err != nil {
						b.Error(err)
						return
					}
					worst = max(worst, time.Since(t0))
					select {
					case <-done:
						return
					default:
					}
				}
			}()
		}
		t0 := time.Now()
		err := c.Do(ctx, "POST", "/api/tournaments", map[string]any{"name": "Big", "format": "round-robin", "rules": shortRules, "size": 64, "entrants": bots}, nil)
		create += time.Since(t0)
		close(done)
		wg.Wait()
		if err != nil {
			b.Fatal(err)
		}
	}
	if withOther {
		b.ReportMetric(float64(worst.Milliseconds()), "other-max-ms")
	} else {
		b.ReportMetric(float64(create.Milliseconds())/float64(b.N), "create-ms")
	}
}
