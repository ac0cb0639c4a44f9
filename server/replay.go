package server

// A table's game turn by turn (GET /api/tables/{id}/replay).

import (
	"net/http"

	"github.com/farkle/farkle/store"
)

func (s *Server) handleReplay(w http.ResponseWriter, r *http.Request) {
	t, err := s.getTable(r.Context(), r.PathValue("id"))
	if err != nil {
		s.httpError(w, err)
		return
	}
	rec, err := t.fullRecord(r.Context())
	if err != nil {
		s.httpError(w, err)
		return
	}
	if rec == nil || t.kind == nil {
		s.httpError(w, store.Errorf(store.ENOTFOUND, "the game at table %s has not started", t.id))
		return
	}
	t.mu.Lock()
	tv := t.view()
	t.mu.Unlock()
	out, err := t.kind.replay(t, tv, rec, langOf(r))
	if err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}
