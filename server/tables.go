package server

// Tables: the list (GET /api/tables), one table (GET /api/tables/{id}) and
// joining it (POST /api/tables/{id}/join).

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/farkle/farkle/store"
)

// The tables a list answers: 50 unless the request's limit asks for 1 to
// maxListLimit.
const (
	defaultListLimit = 50
	maxListLimit     = 200
)

func (s *Server) handleTables(w http.ResponseWriter, r *http.Request) {
	f := store.TableFilter{Limit: defaultListLimit}
	for _, st := range strings.Split(r.URL.Query().Get("status"), ",") {
		switch store.Status(st) {
		case store.Waiting, store.Playing, store.Over, store.Failed, store.Expired:
			f.Status = append(f.Status, store.Status(st))
		case "":
		default:
			s.httpError(w, badRequest("status %q (statuses: waiting, playing, over, failed, expired)", st))
			return
		}
	}
	if l := r.URL.Query().Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > maxListLimit {
			s.httpError(w, fieldErrorf("limit", "%q: a whole number from 1 to %d", l, maxListLimit))
			return
		}
		f.Limit = n
	}
	f.PlayerID = r.URL.Query().Get("player")
	tables, err := s.store.Tables(r.Context(), f)
	if err != nil {
		s.httpError(w, err)
		return
	}
	views := viewsOf(tables, viewOf)
	s.markGuests(r.Context(), views) // guest.go
	writeJSON(w, http.StatusOK, views)
}

func (s *Server) handleTable(w http.ResponseWriter, r *http.Request) {
	t, err := s.getTable(r.Context(), r.PathValue("id"))
	if err != nil {
		s.httpError(w, err)
		return
	}
	t.mu.Lock()
	var v any = struct {
		tableView
		State *stateView `json:"state"`
	}{tableView: t.view()}
	if t.kind != nil {
		v = t.kind.tableJSON(t, t.view())
	}
	t.mu.Unlock()
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) handleJoin(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Seat *int `json:"seat,omitempty"`
	}
	if r.ContentLength != 0 {
		if err := readJSON(r, &body); err != nil {
			s.httpError(w, err)
			return
		}
	}
	p, err := s.playerOf(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	t, err := s.getTable(r.Context(), r.PathValue("id"))
	if err != nil {
		s.httpError(w, err)
		return
	}
	want := -1
	if body.Seat != nil {
		want = *body.Seat
		t.mu.Lock()
		n := len(t.meta.Seats)
		t.mu.Unlock()
		if want < 0 || want >= n {
			s.httpError(w, fieldErrorf("seat", "%d is not a seat of this table (seats 0 to %d)", want, n-1))
			return
		}
	}
	if want, err = t.keptSeat(p, want); err != nil {
		s.httpError(w, err)
		return
	}
	seat, err := t.join(r.Context(), p, want)
	if err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int{"seat": seat})
}
