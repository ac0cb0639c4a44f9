package server

import (
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"runtime"
	"sync/atomic"

	"github.com/farkle/farkle/advise"
	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/explore"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/solve"
	"github.com/farkle/farkle/solved"
)

// Explorer gives the strategy explorer (the page /explore and its API under
// /api/explore) the server's solver results: every table it needs goes
// through the scheduler and limits of one solved.Tables (the one the bots and
// hints use), never a solve of its own, and it never waits for a duel
// table: while one is being prepared the page shows the progress and asks
// again.
//
// Its answers take milliseconds of CPU each (a map reads thousands of
// values and solves tens of turns; a comparison plays games), so at most
// GOMAXPROCS are computed at once; more wait their turn.
type Explorer struct {
	tables   *solved.Tables
	progress atomic.Pointer[solveProgress]
	slots    chan struct{}
}

// solveProgress is the last progress reported by the running duel solve.
type solveProgress struct {
	Sweep int `json:"sweep"`
	Done  int `json:"done"`
	Total int `json:"total"`
}

// NewExplorer returns the explorer over ts. Unless ts reports its progress
// elsewhere already, it takes ts.Progress to show the running solve's
// progress: call it before ts solves anything.
func NewExplorer(ts *solved.Tables) *Explorer {
	x := &Explorer{tables: ts, slots: make(chan struct{}, runtime.GOMAXPROCS(0))}
	if ts.Progress == nil {
		ts.Progress = func(sweep, done, total int) {
			x.progress.Store(&solveProgress{Sweep: sweep, Done: done, Total: total})
		}
	}
	return x
}

// Solo implements explore.Source.
func (x *Explorer) Solo(r rules.Rules) (*solve.Policy, error) { return x.tables.Solo(r) }

// Duel implements explore.Source without waiting: solved.ErrNotReady while
// the table is being got.
func (x *Explorer) Duel(r rules.Rules) (*solve.Table, error) { return x.tables.DuelNow(r) }

// The states of a duel table for the explorer.
const (
	duelReady       = "ready"
	duelPreparing   = "preparing"
	duelUnavailable = "unavailable"
)

// duelStatus is where a rule set's duel table stands.
type duelStatus struct {
	State    string         `json:"state"`
	Reason   string         `json:"reason,omitempty"`   // why unavailable ("its table would need 2.1 GiB, ...")
	Running  int            `json:"running"`            // duel solves running now
	Queued   int            `json:"queued"`             // solves waiting for their turn
	Progress *solveProgress `json:"progress,omitempty"` // of the running solve (sweep, score pairs done of the sweep's)
}

// duel returns the duel table of r if it is in memory, and its status.
func (x *Explorer) duel(r rules.Rules) (*solve.Table, duelStatus) {
	t, err := x.tables.DuelNow(r)
	st := x.tables.Stats()
	ds := duelStatus{Running: st.Running, Queued: st.Queued}
	switch {
	case err == nil:
		ds.State = duelReady
	case errors.Is(err, solved.ErrNotReady):
		ds.State = duelPreparing
		if st.Running > 0 {
			ds.Progress = x.progress.Load()
		}
	default:
		ds.State, ds.Reason = duelUnavailable, solved.Reason(err)
	}
	return t, ds
}

// exploreRoutes adds the explorer's page and API to mux.
func (s *Server) exploreRoutes(mux router, static fs.FS) {
	mux.HandleFunc("GET /explore", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeFileFS(w, r, static, "explore.html")
	})
	mux.HandleFunc("POST /api/explore/map", s.handleExploreMap)
	mux.HandleFunc("POST /api/explore/position", s.handleExplorePosition)
	mux.HandleFunc("POST /api/explore/compare", s.handleExploreCompare)
	mux.HandleFunc("GET /api/explore/published", s.handleExplorePublished)
}

// explorer returns the server's explorer once one of its slots is free
// for r, and the function that frees it; it answers 503 without an
// explorer, and returns nil when r is given up while waiting.
func (s *Server) explorer(w http.ResponseWriter, r *http.Request) (*Explorer, func()) {
	x := s.opt.Explorer
	if x == nil {
		writeJSON(w, http.StatusServiceUnavailable, apiError{Error: "the strategy explorer is not available on this server", Code: "unavailable"})
		return nil, nil
	}
	select {
	case x.slots <- struct{}{}:
		return x, func() { <-x.slots }
	case <-r.Context().Done():
		return nil, nil
	}
}

// rulesRequest is the body of an explorer request about one rule set.
type rulesRequest interface{ rules() json.RawMessage }

func (q *exploreMapReq) rules() json.RawMessage      { return q.Rules }
func (q *explorePositionReq) rules() json.RawMessage { return q.Rules }

// exploreStart begins an explorer request: the JSON body into req, its
// rules, the explorer (503 without one) and the rules' solo policy. ok
// is false when the request has been answered already (an error); else
// done must be called at the end (it frees the explorer's slot).
func exploreStart(s *Server, w http.ResponseWriter, r *http.Request, req rulesRequest) (x *Explorer, rs rules.Rules, pol *solve.Policy, done func(), ok bool) {
	if err := readJSON(r, req); err != nil {
		s.httpError(w, err)
		return nil, rs, nil, nil, false
	}
	rs, err := s.exploreRules(req.rules())
	if err != nil {
		s.httpError(w, err)
		return nil, rs, nil, nil, false
	}
	if x, done = s.explorer(w, r); x == nil {
		return nil, rs, nil, nil, false
	}
	if pol, err = x.Solo(rs); err != nil {
		done()
		s.httpError(w, badRequest("%s", solved.Reason(err)))
		return nil, rs, nil, nil, false
	}
	return x, rs, pol, done, true
}

// exploreRules reads the rules of an explorer request (a preset name or
// the fields of a rule file; empty: the server's quick rules).
func (s *Server) exploreRules(raw json.RawMessage) (rules.Rules, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return s.opt.QuickRules.Clone(), nil
	}
	return ParseRules(raw)
}

// Limits of an explorer request.
const (
	exploreMaxCells = 60
	exploreMaxTotal = 6000
	exploreGames    = 1000 // games of a comparison's game length
)

// exploreMapReq is the body of POST /api/explore/map.
type exploreMapReq struct {
	Rules    json.RawMessage `json:"rules"`
	Me       int             `json:"me"`
	Them     int             `json:"them"`
	Cells    int             `json:"cells"`     // scores per axis of the win map (default 40)
	TurnMax  int             `json:"turn_max"`  // the turn map's highest total (default 3,000)
	TurnStep int             `json:"turn_step"` // its step (default the unit)
}

// exploreMapResp is the answer: the solo thresholds always; the maps and
// the duel thresholds once the duel table is ready.
type exploreMapResp struct {
	Rules   string                  `json:"rules"`
	Target  int                     `json:"target"`
	Unit    int                     `json:"unit"`
	Duel    duelStatus              `json:"duel"`
	Solo    *explore.SoloThresholds `json:"solo"`
	WinMap  *explore.WinMap         `json:"win_map,omitempty"`
	Cell    *exploreCell            `json:"cell,omitempty"`
	TurnMap *explore.TurnMap        `json:"turn_map,omitempty"`
	DuelAt  *explore.DuelThresholds `json:"duel_thresholds,omitempty"`
	Palette []string                `json:"palette"`
	Colors  map[string]string       `json:"colors"` // of the turn map's decisions
}

// exploreCell is the exact value at the asked scores.
type exploreCell struct {
	Me    int     `json:"me"`
	Them  int     `json:"them"`
	Win   float64 `json:"win"`
	Comp  int     `json:"comp"`
	CompP float64 `json:"comp_win"`
}

func (s *Server) handleExploreMap(w http.ResponseWriter, r *http.Request) {
	var req exploreMapReq
	x, rs, pol, done, ok := exploreStart(s, w, r, &req)
	if !ok {
		return
	}
	defer done()
	req.Cells = defaultInt(req.Cells, 40)
	req.TurnMax = defaultInt(req.TurnMax, 3000)
	if req.Cells < 2 || req.Cells > exploreMaxCells || req.TurnMax < 0 || req.TurnMax > exploreMaxTotal {
		s.httpError(w, badRequest("cells must be 2 to %d and turn_max 0 to %d", exploreMaxCells, exploreMaxTotal))
		return
	}
	solo, err := explore.NewSoloThresholds(pol)
	if err != nil {
		s.httpError(w, err)
		return
	}
	resp := exploreMapResp{Rules: rs.Name, Target: rs.Game.Target, Unit: pol.Unit(), Solo: solo, Palette: explore.WinPalette,
		Colors: map[string]string{explore.Bank: explore.BankColor, explore.Throw: explore.ThrowColor, "other": explore.OtherColor}}
	t, ds := x.duel(rs)
	resp.Duel = ds
	if t != nil {
		if err := fillMaps(&resp, t, pol, req); err != nil {
			s.httpError(w, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, resp)
}

// fillMaps computes the maps of the duel table t.
func fillMaps(resp *exploreMapResp, t *solve.Table, pol *solve.Policy, req exploreMapReq) error {
	bad := func(err error) error {
		if errors.Is(err, solve.ErrPosition) {
			return badRequest("%s", cleanMessage(err.Error()))
		}
		return err
	}
	m, err := explore.NewWinMap(t, req.Cells)
	if err != nil {
		return err
	}
	resp.WinMap = m
	c := exploreCell{Me: req.Me, Them: req.Them}
	if c.Win, err = t.WinProbability(req.Me, req.Them, 0, 0); err != nil {
		return bad(err)
	}
	if c.Comp, c.CompP, err = explore.Compensation(t, req.Me, req.Them); err != nil {
		return bad(err)
	}
	resp.Cell = &c
	step := defaultInt(req.TurnStep, t.Unit())
	if req.TurnMax/step > 200 {
		return badRequest("turn_step %d: at most 200 totals in the turn map", step)
	}
	if resp.TurnMap, err = explore.NewTurnMap(t, req.Me, req.Them, req.TurnMax, step); err != nil {
		return bad(err)
	}
	others := make([]int, 0, len(m.Scores))
	others = append(others, m.Scores...)
	resp.DuelAt, err = explore.NewDuelThresholds(t, pol, req.Me, others)
	return bad(err)
}

func defaultInt(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// explorePositionReq is the body of POST /api/explore/position.
type explorePositionReq struct {
	Rules       json.RawMessage `json:"rules"`
	Me          int             `json:"me"`
	Them        int             `json:"them"`
	MyStreak    int             `json:"my_streak"`
	TheirStreak int             `json:"their_streak"`
	Turn        int             `json:"turn"`
	Dice        int             `json:"dice"`  // dice to throw, or thrown (default: all)
	Throw       []int           `json:"throw"` // faces of a throw to keep from, optional
}

type explorePositionResp struct {
	*explore.Inspection
	Duel duelStatus `json:"duel"`
}

func (s *Server) handleExplorePosition(w http.ResponseWriter, r *http.Request) {
	var req explorePositionReq
	x, rs, pol, done, ok := exploreStart(s, w, r, &req)
	if !ok {
		return
	}
	defer done()
	pos := advise.Position{Me: req.Me, Them: req.Them, MyStreak: req.MyStreak, TheirStreak: req.TheirStreak, Total: req.Turn, Dice: req.Dice}
	if len(req.Throw) > 0 {
		if len(req.Throw) > dice.MaxDice {
			s.httpError(w, badRequest("a throw has at most %d dice", dice.MaxDice))
			return
		}
		for _, f := range req.Throw {
			if f < 1 || f > 6 {
				s.httpError(w, badRequest("a die shows 1 to 6, not %d", f))
				return
			}
		}
		pos.Throw = dice.Of(req.Throw...)
		if pos.Dice == 0 {
			pos.Dice = pos.Throw.N()
		}
	}
	if pos.Dice == 0 {
		pos.Dice = rs.Dice
	}
	t, ds := x.duel(rs)
	adv, err := advise.New(rs, t, pol)
	if err != nil {
		s.httpError(w, err)
		return
	}
	if err := adv.Check(pos); err != nil {
		s.httpError(w, badRequest("%s", cleanMessage(err.Error())))
		return
	}
	bots, err := explore.Bots(rs, x.tables)
	if err != nil {
		s.httpError(w, err)
		return
	}
	in, err := explore.Inspect(adv, bots, pos)
	if err != nil {
		s.httpError(w, badRequest("%s", cleanMessage(err.Error())))
		return
	}
	writeJSON(w, http.StatusOK, explorePositionResp{Inspection: in, Duel: ds})
}

// exploreCompareReq is the body of POST /api/explore/compare.
type exploreCompareReq struct {
	Rules []json.RawMessage `json:"rules"` // two to four rule sets
}

func (s *Server) handleExploreCompare(w http.ResponseWriter, r *http.Request) {
	var req exploreCompareReq
	if err := readJSON(r, &req); err != nil {
		s.httpError(w, err)
		return
	}
	if len(req.Rules) < 2 || len(req.Rules) > 4 {
		s.httpError(w, badRequest("compare two to four rule sets, not %d", len(req.Rules)))
		return
	}
	var rs []rules.Rules
	for _, raw := range req.Rules {
		r, err := s.exploreRules(raw)
		if err != nil {
			s.httpError(w, err)
			return
		}
		rs = append(rs, r)
	}
	x, done := s.explorer(w, r)
	if x == nil {
		return
	}
	defer done()
	stats, err := explore.Compare(r.Context(), rs, x, x.tables, exploreGames, x.note)
	if err != nil {
		s.httpError(w, badRequest("%s", solved.Reason(err)))
		return
	}
	writeJSON(w, http.StatusOK, stats)
}

// note says why a duel table is not at hand, for the page.
func (x *Explorer) note(err error) string {
	if errors.Is(err, solved.ErrNotReady) {
		return "its table is being prepared: ask again in a while"
	}
	return solved.Reason(err)
}

func (s *Server) handleExplorePublished(w http.ResponseWriter, r *http.Request) {
	x, done := s.explorer(w, r)
	if x == nil {
		return
	}
	defer done()
	_, ds := x.duel(explore.BuscheNellerRules())
	writeJSON(w, http.StatusOK, struct {
		Duel    duelStatus       `json:"duel"`
		Results []explore.Result `json:"results"`
	}{ds, explore.Published(x, x.note)})
}
