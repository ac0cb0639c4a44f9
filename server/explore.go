package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
// GOMAXPROCS are computed at once, comparisons on all but one of them;
// more wait their turn until their deadline. Every request is bounded by
// ExploreLimits (explore_limits.go): a deadline that cancels its work, a
// rate per client address, and the games a comparison simulates.
type Explorer struct {
	tables   *solved.Tables
	progress atomic.Pointer[solveProgress]
	lanes    lanes
	lim      ExploreLimits
	rate     *limiterSet // requests per client address
}

// solveProgress is the last progress reported by the running duel solve.
type solveProgress struct {
	Sweep int `json:"sweep"`
	Done  int `json:"done"`
	Total int `json:"total"`
}

// NewExplorer returns the explorer over ts with the default limits. Unless
// ts reports its progress elsewhere already, it takes ts.Progress to show
// the running solve's progress: call it before ts solves anything.
func NewExplorer(ts *solved.Tables) *Explorer { return NewExplorerWith(ts, ExploreLimits{}) }

// NewExplorerWith is NewExplorer with the limits lim (zero fields: the
// defaults).
func NewExplorerWith(ts *solved.Tables, lim ExploreLimits) *Explorer {
	lim = lim.withDefaults()
	x := &Explorer{tables: ts, lanes: newLanes(runtime.GOMAXPROCS(0)), lim: lim,
		rate: newLimiterSet("address", lim.AddressRate, lim.AddressBurst, exploreClients)}
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

// rulesRequest is the body of an explorer request about one rule set.
type rulesRequest interface{ rules() json.RawMessage }

func (q *exploreMapReq) rules() json.RawMessage      { return q.Rules }
func (q *explorePositionReq) rules() json.RawMessage { return q.Rules }

// exploreStart begins an explorer request about one rule set
// (exploreBegin): the JSON body into req and its rules read and checked
// with check before it waits for a slot, then the rules' solo policy. ok
// is false when the request has been answered already; else c.end must
// be called.
func exploreStart(s *Server, w http.ResponseWriter, r *http.Request, req rulesRequest, check func() error) (c *exploreCall, rs rules.Rules, pol *solve.Policy, ok bool) {
	c, ok = s.exploreBegin(w, r, false, func() error {
		if err := readJSON(r, req); err != nil {
			return err
		}
		var err error
		if rs, err = s.exploreRules(req.rules()); err != nil {
			return err
		}
		if err := s.opt.Explorer.checkRules("rules", rs); err != nil {
			return err
		}
		if check != nil {
			return check()
		}
		return nil
	})
	if !ok {
		return nil, rs, nil, false
	}
	pol, err := c.solo(rs)
	if err != nil {
		if c.ctx.Err() != nil {
			c.fail(s, w, r, err)
		} else {
			s.httpError(w, badRequest("%s", solved.Reason(err)))
		}
		c.end()
		return nil, rs, nil, false
	}
	return c, rs, pol, true
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
	exploreMaxCells  = 60   // scores per axis of the win map
	exploreMaxTotal  = 6000 // the turn map's highest total
	exploreMaxTotals = 200  // totals in the turn map
	exploreGames     = 1000 // games of a comparison's game length (at most: ExploreLimits.SimTurns)
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
	Shape   explore.MapShape        `json:"shape"` // of the maps, also while the table is prepared
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
	c, rs, pol, ok := exploreStart(s, w, r, &req, func() error {
		req.Cells = defaultInt(req.Cells, 40)
		req.TurnMax = defaultInt(req.TurnMax, 3000)
		switch {
		case req.Cells < 2 || req.Cells > exploreMaxCells:
			return fieldErrorf("cells", "must be 2 to %d (got %d)", exploreMaxCells, req.Cells)
		case req.TurnMax < 0 || req.TurnMax > exploreMaxTotal:
			return fieldErrorf("turn_max", "must be 0 to %d (got %d)", exploreMaxTotal, req.TurnMax)
		case req.TurnStep < 0:
			return fieldErrorf("turn_step", "must be a positive multiple of the rules' unit (got %d)", req.TurnStep)
		case req.TurnStep > 0 && req.TurnMax/req.TurnStep > exploreMaxTotals:
			return fieldErrorf("turn_step", "at most %d totals in the turn map: at least %d with turn_max %d (got %d)",
				exploreMaxTotals, (req.TurnMax+exploreMaxTotals-1)/exploreMaxTotals, req.TurnMax, req.TurnStep)
		}
		return nil
	})
	if !ok {
		return
	}
	defer c.end()
	solo, err := explore.NewSoloThresholds(pol)
	if err != nil {
		s.httpError(w, err)
		return
	}
	resp := exploreMapResp{Rules: rs.Name, Target: rs.Game.Target, Unit: pol.Unit(), Solo: solo, Palette: explore.WinPalette,
		Shape:  explore.ShapeOf(rs.Game.Target, pol.Unit(), rs.Dice, req.Cells, req.TurnMax, defaultInt(req.TurnStep, pol.Unit())),
		Colors: map[string]string{explore.Bank: explore.BankColor, explore.Throw: explore.ThrowColor, "other": explore.OtherColor}}
	t, ds := c.x.duel(rs)
	resp.Duel = ds
	if t != nil {
		if err := fillMaps(c.ctx, &resp, t, pol, req); err != nil {
			c.fail(s, w, r, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, resp)
}

// fillMaps computes the maps of the duel table t, stopping with ctx's
// error once ctx is done.
func fillMaps(ctx context.Context, resp *exploreMapResp, t *solve.Table, pol *solve.Policy, req exploreMapReq) error {
	bad := func(err error) error {
		if errors.Is(err, solve.ErrPosition) {
			return badRequest("%s", cleanMessage(err.Error()))
		}
		return err
	}
	m, err := explore.NewWinMapContext(ctx, t, req.Cells)
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
	if req.TurnMax/step > exploreMaxTotals {
		return fieldErrorf("turn_step", "at most %d totals in the turn map: at least %d with turn_max %d (got %d)",
			exploreMaxTotals, (req.TurnMax+exploreMaxTotals-1)/exploreMaxTotals, req.TurnMax, step)
	}
	if resp.TurnMap, err = explore.NewTurnMapContext(ctx, t, req.Me, req.Them, req.TurnMax, step); err != nil {
		return bad(err)
	}
	others := make([]int, 0, len(m.Scores))
	others = append(others, m.Scores...)
	resp.DuelAt, err = explore.NewDuelThresholdsContext(ctx, t, pol, req.Me, others)
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
	c, rs, pol, ok := exploreStart(s, w, r, &req, func() error {
		if len(req.Throw) > dice.MaxDice {
			return fieldErrorf("throw", "a throw has at most %d dice (got %d)", dice.MaxDice, len(req.Throw))
		}
		for _, f := range req.Throw {
			if f < 1 || f > 6 {
				return fieldErrorf("throw", "a die shows 1 to 6, not %d", f)
			}
		}
		return nil
	})
	if !ok {
		return
	}
	defer c.end()
	x := c.x
	pos := advise.Position{Me: req.Me, Them: req.Them, MyStreak: req.MyStreak, TheirStreak: req.TheirStreak, Total: req.Turn, Dice: req.Dice}
	if len(req.Throw) > 0 {
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
	var rs []rules.Rules
	c, ok := s.exploreBegin(w, r, true, func() error {
		if err := readJSON(r, &req); err != nil {
			return err
		}
		if len(req.Rules) < 2 || len(req.Rules) > 4 {
			return fieldErrorf("rules", "compare two to four rule sets, not %d", len(req.Rules))
		}
		for i, raw := range req.Rules {
			r, err := s.exploreRules(raw)
			if err != nil {
				return err
			}
			if err := s.opt.Explorer.checkRules(fmt.Sprintf("rules[%d]", i), r); err != nil {
				return err
			}
			rs = append(rs, r)
		}
		return nil
	})
	if !ok {
		return
	}
	defer c.end()
	stats, err := explore.CompareWith(c.ctx, rs, exploreSource{c}, c.x.tables,
		explore.CompareOptions{Games: exploreGames, MaxTurns: c.x.lim.SimTurns, DuelNote: c.x.note})
	if err != nil {
		if c.ctx.Err() != nil {
			c.fail(s, w, r, err)
		} else {
			s.httpError(w, badRequest("%s", solved.Reason(err)))
		}
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
	c, ok := s.exploreBegin(w, r, false, nil)
	if !ok {
		return
	}
	defer c.end()
	_, ds := c.x.duel(explore.BuscheNellerRules())
	results := explore.Published(exploreSource{c}, c.x.note)
	if err := c.ctx.Err(); err != nil {
		c.fail(s, w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Duel    duelStatus       `json:"duel"`
		Results []explore.Result `json:"results"`
		Three   []threeStatus    `json:"three"`
	}{ds, results, c.x.published3()})
}

// threeStatus is where the table of a published three-player game
// stands, and what it says once at hand.
type threeStatus struct {
	explore.ThreeGame
	State   string               `json:"state"`             // ready, preparing or unavailable
	Percent int                  `json:"percent,omitempty"` // preparing: the part of the solve done (0 while read or waiting)
	Why     *solved.Why          `json:"why,omitempty"`     // preparing or unavailable: why, in the catalogue's words
	Result  *explore.ThreeResult `json:"result,omitempty"`  // ready
}

// published3 returns the published three-player games' tables as they
// stand, never waiting: a table not in memory is read from the cache
// directory (farkle solve --players 3 left it there) or, when small
// enough, solved through the scheduler, and shows as preparing meanwhile.
func (x *Explorer) published3() []threeStatus {
	out := make([]threeStatus, 0, len(explore.PublishedThree))
	for _, g := range explore.PublishedThree {
		st := threeStatus{ThreeGame: g}
		t, err := x.tables.ThreeNow(g.Rules())
		var pe *solved.PreparingError
		switch {
		case err == nil:
			res := explore.ThreeResultOf(t)
			st.State, st.Result = duelReady, &res
		case errors.As(err, &pe):
			st.State, st.Percent = duelPreparing, pe.Percent()
		default:
			st.State = duelUnavailable
		}
		if err != nil {
			why := solved.WhyOf(err)
			st.Why = &why
		}
		out = append(out, st)
	}
	return out
}
