package server

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/store"
)

//go:embed web
var webFS embed.FS

// CookieName is the cookie holding a guest's secret token.
const CookieName = "farkle_token"

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
	mux.HandleFunc("POST /api/tournaments/{id}/join", s.handleJoinTournament)
	mux.HandleFunc("GET /api/players/{id}/ratings", s.handlePlayerRatings)
	mux.HandleFunc("GET /api/presets", s.handlePresets)
	mux.HandleFunc("GET /api/bots", s.handleBots)
	mux.HandleFunc("GET /api/tables", s.handleTables)
	mux.HandleFunc("POST /api/tables", s.handleNewTable)
	mux.HandleFunc("GET /api/tables/{id}", s.handleTable)
	mux.HandleFunc("POST /api/tables/{id}/join", s.handleJoin)
	mux.HandleFunc("POST /api/tables/{id}/rematch", s.handleRematch)
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
	page := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeFileFS(w, r, static, "index.html")
	}
	for _, p := range []string{"GET /{$}", "GET /new", "GET /lobby", "GET /history", "GET /leaderboard", "GET /account", "GET /signin", "GET /tournaments", "GET /tournaments/{id}", "GET /t/{id}", "GET /replay/{id}", "GET /players/{id}", "GET /local"} {
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

// apiError is the body of every error response.
type apiError struct {
	Error string `json:"error"`
	Code  string `json:"code"`
	Field string `json:"field,omitempty"` // the field at fault: a rule field, or "name", "seat", "limit"
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
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
		writeJSON(w, http.StatusConflict, apiError{Error: inv.Error(), Code: store.ECONFLICT, Field: inv.Field})
	case errors.As(err, &inv):
		writeJSON(w, http.StatusBadRequest, apiError{Error: inv.Error(), Code: store.EINVALID, Field: inv.Field})
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

// hashToken returns the stored form of a secret token.
func hashToken(tok string) string {
	sum := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(sum[:])
}

// tokenOf returns the secret token the request carries: the cookie, or
// "Authorization: Bearer TOKEN". Empty: none.
func tokenOf(r *http.Request) string {
	tok := ""
	if c, err := r.Cookie(CookieName); err == nil {
		tok = c.Value
	}
	if h := r.Header.Get("Authorization"); strings.HasPrefix(h, "Bearer ") {
		tok = strings.TrimPrefix(h, "Bearer ")
	}
	return tok
}

// tokenCookie returns the cookie holding a guest's token: HttpOnly,
// SameSite=Strict (the pages' own requests carry it; no other site's
// do), Secure on an HTTPS site, for a year. A negative maxAge deletes it.
func (s *Server) tokenCookie(r *http.Request, tok string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: CookieName, Value: tok, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode,
		Secure: s.secureRequest(r), MaxAge: maxAge}
}

// cleanLine returns a line of text (a name, a chat line) with spaces
// collapsed, or an EINVALID error, prefixed with what, saying what it may
// be: 1 to max printable characters.
func cleanLine(what, text string, max int) (string, error) {
	if !utf8.ValidString(text) {
		return "", badRequest("%s: not valid UTF-8", what)
	}
	text = strings.Join(strings.Fields(text), " ")
	if text == "" {
		return "", badRequest("%s: empty (1 to %d characters)", what, max)
	}
	if n := utf8.RuneCountInString(text); n > max {
		return "", badRequest("%s: %d characters, at most %d", what, n, max)
	}
	for _, r := range text {
		if !unicode.IsPrint(r) {
			return "", badRequest("%s: %q is not a printable character", what, r)
		}
	}
	return text, nil
}

type playerView struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// handleMe answers the guest of the request, or null (200) when it has
// none: a first visit is no error.
func (s *Server) handleMe(w http.ResponseWriter, r *http.Request) {
	p, err := s.playerOf(r)
	if store.Code(err) == store.ENOTFOUND {
		writeJSON(w, http.StatusOK, nil)
		return
	}
	if err != nil {
		s.httpError(w, err)
		return
	}
	_, err = s.store.Account(r.Context(), p.ID)
	if err != nil && store.Code(err) != store.ENOTFOUND {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		playerView
		Account bool `json:"account"` // signed in with a passkey or recovery code, not a guest of this browser
	}{playerView{ID: p.ID, Name: p.Name}, err == nil})
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

// handleNewPlayer creates a guest with a display name and sets its secret
// token in an HttpOnly, SameSite cookie (also returned once in the body for
// non-browser clients). A request that already carries a valid token is
// refused (409): the token is the only key to that player, so it is never
// replaced without an explicit sign-out.
func (s *Server) handleNewPlayer(w http.ResponseWriter, r *http.Request) {
	if p, err := s.playerOf(r); err == nil {
		writeJSON(w, http.StatusConflict, apiError{Error: fmt.Sprintf("you already are %s; sign out first (POST /api/signout)", p.Name), Code: store.ECONFLICT})
		return
	} else if store.Code(err) != store.ENOTFOUND {
		s.httpError(w, err)
		return
	}
	var body struct {
		Name string `json:"name"`
	}
	if err := readJSON(r, &body); err != nil {
		s.httpError(w, err)
		return
	}
	name, err := CleanName(body.Name)
	if err == nil {
		err = s.guestNameFree(r.Context(), name)
	}
	if err != nil {
		s.httpError(w, err)
		return
	}
	tok := randomID(32)
	p := store.Player{ID: randomID(9), Name: name, TokenHash: hashToken(tok), Created: s.opt.Now()}
	if err := s.store.CreatePlayer(r.Context(), p); err != nil {
		s.httpError(w, err)
		return
	}
	http.SetCookie(w, s.tokenCookie(r, tok, 365*24*3600))
	s.log.Info("new player", "player", p.ID)
	writeJSON(w, http.StatusCreated, struct {
		playerView
		Token string `json:"token"`
	}{playerView{p.ID, p.Name}, tok})
}

type statsView struct {
	PlayerKey     string  `json:"player"`
	Name          string  `json:"name"`
	Games         int     `json:"games"`
	Wins          int     `json:"wins"`
	WinRate       float64 `json:"win_rate"`
	Turns         int     `json:"turns"`
	PointsPerTurn float64 `json:"points_per_turn"`
	FarkleRate    float64 `json:"farkle_rate"`
	BestTurn      int     `json:"best_turn"`
}

func statsOf(st store.Stats) statsView {
	return statsView{PlayerKey: st.PlayerKey, Name: st.Name, Games: st.Games, Wins: st.Wins, WinRate: st.WinRate(), Turns: st.Turns,
		PointsPerTurn: st.PointsPerTurn(), FarkleRate: st.FarkleRate(), BestTurn: st.BestTurn}
}

func (s *Server) handleStats(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	st, err := s.store.Stats(r.Context(), id)
	if err != nil {
		s.httpError(w, err)
		return
	}
	if st.Name == "" {
		if p, err := s.store.Player(r.Context(), id); err == nil {
			st.Name = p.Name
		}
	}
	tables, err := s.store.Tables(r.Context(), store.TableFilter{PlayerID: id, Status: []store.Status{store.Over}, Limit: 50})
	if err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		statsView
		History []tableView `json:"history"`
	}{statsOf(st), viewsOf(tables, viewOf)})
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

func (s *Server) handleLeaderboard(w http.ResponseWriter, r *http.Request) {
	lb, err := s.store.Leaderboard(r.Context(), 1, 50)
	if err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, viewsOf(lb, statsOf))
}

func (s *Server) handlePresets(w http.ResponseWriter, r *http.Request) {
	type preset struct {
		Name  string      `json:"name"`
		Rules rules.Rules `json:"rules"`
	}
	var out []preset
	for _, n := range rules.Presets() {
		pr, err := rules.Preset(n)
		if err != nil {
			continue
		}
		out = append(out, preset{n, pr})
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleBots(w http.ResponseWriter, r *http.Request) {
	type level struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	out := []level{}
	for _, l := range bot.Levels() {
		out = append(out, level{l.Name, l.Description})
	}
	writeJSON(w, http.StatusOK, out)
}

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
	writeJSON(w, http.StatusOK, viewsOf(tables, viewOf))
}

// newTableReq is the body of POST /api/tables.
type newTableReq struct {
	Rules json.RawMessage `json:"rules"` // a preset name, or a rule set as JSON (the fields of a rule file)
	Seats []seatReq       `json:"seats"`
	Clock *int            `json:"clock,omitempty"` // seconds to act at a table with people; 0: the server's default
	Rated bool            `json:"rated,omitempty"` // house rules move ratings (presets and Dragon Farkle always do)
	Pace  string          `json:"pace,omitempty"`  // a game at your own pace: "1h", "12h", "1d" or "3d" a decision (pace.go); none: live
}

// seatReq is one seat asked for: "me" (the caller), "human" (a friend who
// joins by link) or "bot" with a level.
type seatReq struct {
	Type  string `json:"type"`
	Level string `json:"level,omitempty"`
	Name  string `json:"name,omitempty"` // "invite": the account invited (invite.go)
}

// ParseRules reads the rules of a table request: a JSON string naming a
// preset, or an object with the fields of a rule file (validated, with the
// field named in the error; named HouseRules when it has no name). Empty
// means the classic preset. The preset of another kind of game ("dragon",
// game.Preset) is refused here: handleNewTable makes a table of that game
// of it first.
func ParseRules(raw json.RawMessage) (rules.Rules, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return rules.Preset(rules.DefaultBase)
	}
	var name string
	if err := json.Unmarshal(raw, &name); err == nil {
		if v, ok := game.Preset(name); ok {
			return rules.Rules{}, badRequest("rules: %q is not an ordinary rule set: a table request with the rules %q makes a table of %s (presets: %s)", name, name, v.Kind(), strings.Join(playablePresets(), ", "))
		}
		r, err := rules.Preset(name)
		if err != nil {
			return r, badRequest("rules: unknown preset %q (presets: %s)", name, strings.Join(playablePresets(), ", "))
		}
		return r, nil
	}
	r, err := rules.ParseJSON(raw)
	if err != nil {
		var fe *rules.FieldError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &fe):
			return r, err
		case errors.As(err, &te) && te.Field != "":
			return r, &rules.FieldError{Field: te.Field, Msg: fmt.Sprintf("want %s, not a JSON %s", jsonKind(te.Type), te.Value)}
		case errors.As(err, &te):
			return r, badRequest("rules: want a preset name or an object of rule fields, not a JSON %s", te.Value)
		}
		return r, badRequest("rules: %v", err)
	}
	if r.Name == "" {
		r.Name = HouseRules // a rule set is shown by its name everywhere: never blank
	}
	return r, nil
}

// HouseRules is the name of a table's rules sent without one.
const HouseRules = "house rules"

// jsonKind says what JSON value a Go type takes.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	default:
		return "an object"
	}
}

// openTable stores the new table t (every seat taken: started with start,
// t.mu held), created by player p within p's quotas (quota.go), and serves
// it from now on. It returns the table's view as it stands once open.
func (s *Server) openTable(ctx context.Context, p store.Player, t *table, start func() error) (tableView, error) {
	if t.seatsFull() {
		t.meta.Status = store.Playing
	}
	t.meta.Creator = p.ID
	if err := s.admit(ctx, p, t.meta.Seats, func() error { return s.store.CreateTable(ctx, t.meta) }); err != nil {
		return tableView{}, err
	}
	return s.serveNew(ctx, t, start)
}

// serveNew serves the new table t, stored already: it starts its game with
// start when every seat is taken, and activates it (its bots and clock). It
// returns the table's view as it stands once open.
func (s *Server) serveNew(ctx context.Context, t *table, start func() error) (tableView, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.seatsFull() {
		if err := start(); err != nil {
			return tableView{}, err
		}
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return tableView{}, errClosed
	}
	s.tables[t.id] = t
	s.mu.Unlock()
	t.activate(ctx)
	return t.view(), nil
}

// seatsOf returns the seats asked for in a new-table request: "me" becomes
// the caller (at most one such seat), "human" an empty seat to be joined by
// link, and "bot" a bot whose level botLevel checks and returns in canonical
// form. Bots get unique display names. The error is an EINVALID naming the
// bad seat.
func (s *Server) seatsOf(r *http.Request, req []seatReq, botLevel func(level string) (string, error)) ([]store.Seat, error) {
	me := false
	seats := make([]store.Seat, len(req))
	for i, sr := range req {
		switch sr.Type {
		case "me":
			if me {
				return nil, badRequest("seats[%d]: only one seat can be \"me\"", i)
			}
			p, err := s.playerOf(r)
			if err != nil {
				return nil, badRequest("seats[%d]: a \"me\" seat needs a player: choose a name first", i)
			}
			me = true
			seats[i] = store.Seat{Name: p.Name, PlayerID: p.ID}
		case "human":
		case "invite":
			seat, err := s.inviteSeat(r, sr.Name)
			if err != nil {
				return nil, badRequest("seats[%d]: %s", i, clientMessage(err))
			}
			seats[i] = seat
		case "bot":
			lv, err := botLevel(sr.Level)
			if err != nil {
				return nil, badRequest("seats[%d]: %v", i, err)
			}
			seats[i] = store.Seat{Bot: lv}
		default:
			return nil, badRequest("seats[%d]: type %q (types: me, human, invite, bot)", i, sr.Type)
		}
	}
	for i := range seats {
		if seats[i].Bot != "" {
			seats[i].Name = uniqueName(seats, i, botName(seats[i].Bot))
		}
	}
	return seats, nil
}

func playablePresets() []string { return rules.Presets() }

// newKind returns the game of a table request: the variant of a preset of
// another kind of game (game.Preset: "dragon" is Dragon Farkle), else the
// ordinary game under the rules asked for.
func (s *Server) newKind(raw json.RawMessage) (gameKind, error) {
	var name string
	if json.Unmarshal(raw, &name) == nil {
		if v, ok := game.Preset(name); ok {
			return s.kindOfVariant(v.Capped(s.opt.MaxTurns))
		}
	}
	rs, err := ParseRules(raw)
	if len(raw) == 0 {
		rs, err = s.opt.QuickRules.Clone(), nil
	}
	if err != nil {
		return nil, err
	}
	v, err := game.NewFarkle(rs)
	if err != nil {
		return nil, badRequest("%v", err)
	}
	return s.kindOfVariant(v.Capped(s.opt.MaxTurns))
}

func (s *Server) handleNewTable(w http.ResponseWriter, r *http.Request) {
	var req newTableReq
	if err := readJSON(r, &req); err != nil {
		s.httpError(w, err)
		return
	}
	p, err := s.creator(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	view, err := s.createTable(r, p, req, nil)
	if err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, view)
}

// createTable makes the table req asks for, created by p, and opens it.
// prepare, when not nil, sees the table before anyone can join it.
func (s *Server) createTable(r *http.Request, p store.Player, req newTableReq, prepare func(*table)) (tableView, error) {
	clock, err := s.clockFor(req.Clock)
	if req.Pace != "" {
		if req.Clock != nil {
			err = badRequest("clock: a game at your own pace has the clock of its pace; give one or the other")
		} else {
			clock, err = s.paceClock(req.Pace)
		}
	}
	if err != nil {
		return tableView{}, err
	}
	k, err := s.newKind(req.Rules)
	if err != nil {
		return tableView{}, err
	}
	if len(req.Seats) == 0 {
		req.Seats = []seatReq{{Type: "me"}, {Type: "bot", Level: s.cast().DefaultLevel(k.variant().Kind())}}
	}
	if err := k.checkSeats(len(req.Seats)); err != nil {
		return tableView{}, err
	}
	seats, err := s.seatsOf(r, req.Seats, k.botLevel)
	if err != nil {
		return tableView{}, err
	}
	withClock(seats, clock)
	v := k.variant()
	tb := store.Table{ID: randomID(9), Kind: v.Kind(), Rules: v.Rules(), Seats: seats, Seed: newSeed(), Status: store.Waiting, Created: s.opt.Now(), Rated: req.Rated, Pace: req.Pace}
	tb.Updated = tb.Created
	t := s.newTable(tb)
	t.kind = k
	if t.bots, err = t.newBots(); err != nil {
		return tableView{}, badRequest("%v", err)
	}
	if prepare != nil {
		prepare(t)
	}
	view, err := s.openTable(r.Context(), p, t, func() error {
		if err := t.start(); err != nil {
			return badRequest("%v", err)
		}
		return nil
	})
	if err != nil {
		return tableView{}, err
	}
	s.log.Info("table created", "table", tb.ID, "kind", tb.Kind, "rules", v.Name(), "seats", len(seats), "commitment", tb.Commitment())
	return view, nil
}

func botName(level string) string {
	if level == "" {
		return "Bot"
	}
	return strings.ToUpper(level[:1]) + level[1:] + " bot"
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

// handleRecord serves the game record as a download; the seed is in it
// once the game is over.
func (s *Server) handleRecord(w http.ResponseWriter, r *http.Request) {
	t, err := s.getTable(r.Context(), r.PathValue("id"))
	if err != nil {
		s.httpError(w, err)
		return
	}
	rec := t.record()
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

func (s *Server) handleReplay(w http.ResponseWriter, r *http.Request) {
	t, err := s.getTable(r.Context(), r.PathValue("id"))
	if err != nil {
		s.httpError(w, err)
		return
	}
	rec := t.record()
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

func (s *Server) handleAnalysis(w http.ResponseWriter, r *http.Request) {
	adv := s.opt.Advisor
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
		a, err := adv.Analyze(t.record())
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
