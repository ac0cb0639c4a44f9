package server_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/farkle/farkle/server"
)

// BenchmarkMe measures GET /api/me of a guest, in process: what every
// request that names its player pays to find it (its session, and whether
// an account's name looks like the guest's), with 1,000 guests in the
// database.
func BenchmarkMe(b *testing.B) {
	ts := start(b, "", server.Options{AddressRate: -1, PlayerRate: -1})
	var tok string
	for i := range 1000 {
		p := newPlayer(b, ts, fmt.Sprintf("Guest %d", i))
		tok = p.Token
	}
	h := ts.Srv.Handler()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		req := httptest.NewRequest("GET", "/api/me", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatal(w.Code, w.Body.String())
		}
	}
}
