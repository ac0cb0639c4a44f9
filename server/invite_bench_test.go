package server_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/farkle/farkle/server"
)

// BenchmarkMyGames: GET /api/me/games of a player with 5 tables of its own
// and 20 invitations, on a server with 200 or 2,000 other open tables
// (guests' tables waiting for a friend). Its cost should be the player's
// own tables, not the server's: before the index, every call looked at
// every table in memory and searched every open table's seats in the
// database.
//
//	go test ./server -run '^$' -bench BenchmarkMyGames -benchmem
func BenchmarkMyGames(b *testing.B) {
	for _, n := range []int{200, 2000} {
		b.Run(fmt.Sprintf("others=%d", n), func(b *testing.B) { benchMyGames(b, n) })
	}
}

func benchMyGames(b *testing.B, n int) {
	ts := start(b, "", server.Options{MaxOpenTables: -1, MaxTablesTotal: -1})
	ctx := context.Background()
	others := newPlayer(b, ts, "Others")
	for range n {
		if _, err := others.CreateTable(ctx, map[string]any{"base": "classic"}, map[string]string{"type": "me"}, map[string]string{"type": "human"}); err != nil {
			b.Fatal(err)
		}
	}
	bea := newPlayer(b, ts, "Bea")
	makeAccount(b, ts.DB, bea, "Bea")
	for range 5 {
		if _, err := bea.CreateTable(ctx, map[string]any{"base": "classic"}, map[string]string{"type": "me"}, map[string]string{"type": "human"}); err != nil {
			b.Fatal(err)
		}
	}
	for range 20 {
		inviter := newPlayer(b, ts, "Ann")
		if _, err := inviter.CreateTable(ctx, map[string]any{"base": "classic"}, map[string]string{"type": "me"}, map[string]string{"type": "invite", "name": "Bea"}); err != nil {
			b.Fatal(err)
		}
	}
	req, err := http.NewRequest("GET", ts.URL+"/api/me/games", nil)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+bea.Token)
	size := 0
	for b.Loop() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("HTTP %d %s", resp.StatusCode, data)
		}
		size = len(data)
	}
	b.ReportMetric(float64(size), "answer-bytes")
}
