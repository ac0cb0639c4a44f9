package server_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/farkle/farkle/server"
)

// TestWebSocketConnectionRateOff: a negative Options.ActionRate (farkle
// serve --ws-rate 0) turns the limit per connection off: twenty messages
// at once on a burst of two all pass; with a rate the same messages are
// refused past the burst.
func TestWebSocketConnectionRateOff(t *testing.T) {
	for _, c := range []struct {
		rate    float64
		refused int
	}{{-1, 0}, {0.01, 18}} {
		t.Run(fmt.Sprint(c.rate), func(t *testing.T) {
			ts := start(t, "", server.Options{ActionRate: c.rate, ActionBurst: 2, PlayerMessageRate: -1, BotDelay: time.Hour})
			ctx := ctxT(t, 20*time.Second)
			ann := newPlayer(t, ts, "Ann")
			tb, err := ann.CreateTable(ctx, nil, map[string]string{"type": "me"}, map[string]string{"type": "human"})
			if err != nil {
				t.Fatal(err)
			}
			if err := ann.Connect(ctx, tb.ID); err != nil {
				t.Fatal(err)
			}
			defer ann.Close()
			if m, err := ann.Read(ctx); err != nil || m.Type != "welcome" {
				t.Fatalf("welcome: %v %v", m.Type, err)
			}
			for i := range 20 {
				if err := ann.Send(ctx, map[string]string{"type": "ping", "id": fmt.Sprint(i)}); err != nil {
					t.Fatal(err)
				}
			}
			refused := 0
			for range 20 {
				m, err := ann.Next(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if m.Type == "error" {
					refused++
				}
			}
			if refused != c.refused {
				t.Fatalf("%d of 20 messages refused, want %d", refused, c.refused)
			}
		})
	}
}
