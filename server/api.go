package server

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/http"
	"time"

	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/store"
)

//go:embed web
var webFS embed.FS

const maxBody = 16 << 10

// routes registers every route of the site on mux and returns the site's
// handler: mux behind the edge. Each route is listed in docs/SECURITY.md
// with its bounds (TestInventoryRoutes holds the two together).
func (s *Server) routes(mux *routeMux) http.Handler {
	mux.HandleFunc("GET /healthz", s.handleHealth) // /metrics is on a listener of its own: see MetricsHandler

	mux.HandleFunc("GET /api/me", s.handleMe)
	mux.HandleFunc("GET /api/me/games", s.handleMyGames)
	mux.HandleFunc("POST /api/players", s.handleNewPlayer)
	mux.HandleFunc("POST /api/signout", s.handleSignOut)
	mux.HandleFunc("GET /api/account", s.handleAccount)
	mux.HandleFunc("POST /api/account/passkeys/begin", s.handlePasskeyBegin)
	mux.HandleFunc("POST /api/account/passkeys/finish", s.handlePasskeyFinish)
	mux.HandleFunc("DELETE /api/account/passkeys/{id}", s.handlePasskeyRemove)
	mux.HandleFunc("POST /api/account/signin/begin", s.handleSignInBegin)
	mux.HandleFunc("POST /api/account/signin/finish", s.handleSignInFinish)
	mux.HandleFunc("POST /api/account/recover", s.handleRecover)
	mux.HandleFunc("DELETE /api/account/sessions/{id}", s.handleEndSession)
	mux.HandleFunc("POST /api/account/signout-everywhere", s.handleSignOutEverywhere)
	mux.HandleFunc("GET /api/players/{id}/stats", s.handleStats)
	mux.HandleFunc("GET /api/leaderboard", s.handleLeaderboard)
	mux.HandleFunc("GET /api/ratings", s.handleRatings)
	mux.HandleFunc("GET /api/tournaments", s.handleTournaments)
	mux.HandleFunc("POST /api/tournaments", s.handleNewTournament)
	mux.HandleFunc("GET /api/tournaments/{id}", s.handleTournament)
	mux.HandleFunc("POST /api/tournaments/{id}/join", s.unbanned(s.handleJoinTournament))
	mux.HandleFunc("GET /api/players/{id}/ratings", s.handlePlayerRatings)
	mux.HandleFunc("GET /api/presets", s.handlePresets)
	mux.HandleFunc("GET /api/bots", s.handleBots)
	mux.HandleFunc("GET /api/tables", s.handleTables)
	mux.HandleFunc("POST /api/tables", s.unbanned(s.handleNewTable)) // sanction.go: a banned player is refused
	mux.HandleFunc("GET /api/tables/{id}", s.handleTable)
	mux.HandleFunc("POST /api/tables/{id}/join", s.unbanned(s.handleJoin))
	mux.HandleFunc("POST /api/tables/{id}/rematch", s.unbanned(s.handleRematch))
	mux.HandleFunc("POST /api/tables/{id}/resume", s.unbanned(s.handleResume)) // adjourn.go
	mux.HandleFunc("GET /api/tables/{id}/record", s.handleRecord)
	mux.HandleFunc("GET /api/tables/{id}/replay", s.handleReplay)
	mux.HandleFunc("GET /api/tables/{id}/analysis", s.handleAnalysis)
	mux.HandleFunc("POST /api/local-games", s.handleLocalGame) // localgames.go
	mux.HandleFunc("GET /ws/tables/{id}", s.handleWS)
	mux.HandleFunc("GET /api/dragon/odds", s.handleDragonOdds)
	mux.HandleFunc("GET /api/dragon/cards", s.handleDragonCards)

	static, _ := fs.Sub(webFS, "web")
	files := http.FileServerFS(static)
	mux.Handle("GET /static/", http.StripPrefix("/static/", cacheShort(files)))
	s.exploreRoutes(mux, static) // explore.go
	s.inviteRoutes(mux)          // invite.go
	s.langRoutes(mux)            // lang.go
	s.offlineRoutes(mux)         // offline.go
	s.moderationRoutes(mux)      // moderation.go
	page := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeFileFS(w, r, static, "index.html")
	}
	for _, p := range []string{"GET /{$}", "GET /new", "GET /lobby", "GET /history", "GET /leaderboard", "GET /account", "GET /signin", "GET /tournaments", "GET /tournaments/{id}", "GET /t/{id}", "GET /replay/{id}", "GET /players/{id}", "GET /local", "GET /moderate", "GET /settings"} {
		mux.HandleFunc(p, page)
	}
	// Outermost first: security headers (and HSTS) on every answer, the log
	// of every request, then the edge's refusals (cross-site, not JSON,
	// rate limits) before any handler.
	return secure(s.transport(s.logRequests(s.guard(mux))))
}

func cacheShort(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	})
}

// handleHealth answers 200 {"status":"ok"} when the database answers a
// round trip that includes a write (store Health) within two seconds, else
// 503 with a short reason; the error itself goes to the log.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	err := s.store.Health(ctx)
	if err != nil {
		reason := "the database failed a read and write round trip"
		if ctx.Err() != nil {
			reason = "the database did not answer within 2 s"
		}
		s.log.Error("health check failed", "err", err)
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unhealthy", "reason": reason})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// apiError is the body of every error response.
type apiError struct {
	Error string `json:"error"`
	Code  string `json:"code"`
	Field string `json:"field,omitempty"` // the field at fault: a rule field, or "name", "seat", "limit"
	// Reason is why, as a word a client may say in its player's language
	// ("empty", "long", "unprintable", "marks", "bot", "taken" for a
	// name), and Max the bound broken; both only where the server gives them.
	Reason string `json:"reason,omitempty"`
	Max    int    `json:"max,omitempty"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func readJSON(r *http.Request, v any) error {
	data, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return badRequest("the body came too slowly: it must arrive within the read timeout")
		}
		return badRequest("the body could not be read")
	}
	if len(data) > maxBody {
		return badRequest("the body is longer than %d bytes", maxBody)
	}
	if err := decodeStrict(data, v); err != nil {
		return badRequest("bad JSON: %v", err)
	}
	return nil
}

// httpError maps an error to a status: store codes, rule errors (400 with
// the field), and 500 for the rest. The client reads the message without
// internal prefixes (see clientMessage); a 500 says nothing of the cause.
func (s *Server) httpError(w http.ResponseWriter, err error) {
	if writeQuotaError(w, err) || writeRetryError(w, err) {
		return
	}
	var fe *rules.FieldError
	var inv *fieldError
	switch {
	case errors.As(err, &inv) && inv.Conflict:
		writeJSON(w, http.StatusConflict, apiError{Error: inv.Error(), Code: store.ECONFLICT, Field: inv.Field, Reason: inv.Reason, Max: inv.Max})
	case errors.As(err, &inv):
		writeJSON(w, http.StatusBadRequest, apiError{Error: inv.Error(), Code: store.EINVALID, Field: inv.Field, Reason: inv.Reason, Max: inv.Max})
	case errors.As(err, &fe):
		writeJSON(w, http.StatusBadRequest, apiError{Error: "rules: " + fe.Field + ": " + cleanMessage(fe.Msg), Code: store.EINVALID, Field: fe.Field})
	case errors.Is(err, errClosed):
		writeJSON(w, http.StatusServiceUnavailable, apiError{Error: "the server is shutting down", Code: "unavailable"})
	default:
		switch code := store.Code(err); code {
		case store.ENOTFOUND:
			writeJSON(w, http.StatusNotFound, apiError{Error: clientMessage(err), Code: code})
		case store.ECONFLICT:
			writeJSON(w, http.StatusConflict, apiError{Error: clientMessage(err), Code: code})
		case store.EINVALID:
			writeJSON(w, http.StatusBadRequest, apiError{Error: clientMessage(err), Code: code})
		default:
			s.log.Error("request failed", "err", err)
			writeJSON(w, http.StatusInternalServerError, apiError{Error: "internal error", Code: "internal"})
		}
	}
}

func badRequest(format string, args ...any) error {
	return store.Errorf(store.EINVALID, format, args...)
}

// viewsOf returns the JSON view of each of xs, made by view: an empty list,
// never nil, so that the JSON answer is [] rather than null.
func viewsOf[T, V any](xs []T, view func(T) V) []V {
	out := make([]V, 0, len(xs))
	for _, x := range xs {
		out = append(out, view(x))
	}
	return out
}
