package server

// The record of a table's game as a download (GET /api/tables/{id}/record).

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// handleRecord serves the game record as a download; the seed is in it
// once the game is over.
func (s *Server) handleRecord(w http.ResponseWriter, r *http.Request) {
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
	if rec == nil {
		if rec, err = s.storedRecord(r.Context(), t); err != nil {
			s.httpError(w, err)
			return
		}
	}
	if rec.Actions == nil {
		rec.Actions = []json.RawMessage{} // [] before the first action, never null
	}
	data, err := rec.Marshal()
	if err != nil {
		s.httpError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s.json"`, rec.Kind, t.id))
	w.Write(append(data, '\n'))
}
