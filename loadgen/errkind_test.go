package loadgen

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A request that times out while the run goes on is an error of the
// server named, not dropped as the run's end is: a node that accepts
// connections and never answers shows in the report.
func TestErrKindTimeout(t *testing.T) {
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer hung.Close()
	c := &http.Client{Timeout: 50 * time.Millisecond}
	_, err := c.Post(hung.URL+"/api/tables/x/join", "application/json", nil)
	if err == nil {
		t.Fatal("a server that never answers answered")
	}
	host := strings.TrimPrefix(hung.URL, "http://")
	if got := errKind("join", err); !strings.Contains(got, "join: the server at "+host+" did not answer within") {
		t.Errorf("errKind of a timed-out request = %q, want it to name the server that did not answer", got)
	}

	// The run's own end is no error.
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, hung.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Fatal("a request whose context ended answered")
	} else if got := errKind("join", err); got != "" {
		t.Errorf("errKind of a request cut by the run's end = %q, want none", got)
	}
}
