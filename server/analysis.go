package server

// The analysis of a finished game (GET /api/tables/{id}/analysis).

import (
	"net/http"

	"github.com/farkle/farkle/store"
)

func (s *Server) handleAnalysis(w http.ResponseWriter, r *http.Request) {
	adv := s.opt.Analyzer
	if adv == nil {
		writeJSON(w, http.StatusServiceUnavailable, apiError{Error: "this server has no advisor: analysis is unavailable", Code: codeUnavailable})
		return
	}
	t, err := s.getTable(r.Context(), r.PathValue("id"))
	if err != nil {
		s.httpError(w, err)
		return
	}
	t.mu.Lock()
	cached, over := t.analysis, t.meta.Status == store.Over && t.kind != nil
	t.mu.Unlock()
	if !over {
		s.httpError(w, store.Errorf(store.ECONFLICT, "the game at table %s is not over: analysis comes at the end", t.id))
		return
	}
	if cached == nil {
		rec, err := t.fullRecord(r.Context())
		if err != nil {
			s.httpError(w, err)
			return
		}
		a, err := adv.Analyze(rec)
		if err != nil {
			s.httpError(w, err)
			return
		}
		cached = &a
		t.mu.Lock()
		t.analysis = cached
		t.mu.Unlock()
	}
	writeJSON(w, http.StatusOK, cached)
}
