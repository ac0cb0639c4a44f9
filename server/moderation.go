package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"strconv"
	"time"

	"github.com/farkle/farkle/store"
)

// Moderation: the moderators (accounts an operator names with farkle
// admin; never through this API) read the players' reports, the sanctions
// in force and the audit log, and act through POST
// /api/moderation/actions: mute or ban a player or an address range, lift
// a sanction, hide a chat line, rename a player, close a table, dismiss a
// report. Everyone else is answered 403. Each action is written with its
// audit entry (who, what, when, why) and logged (event=moderation).
// docs/API.md, "Moderation"; docs/OPERATIONS.md, "Moderation".

const (
	maxReason     = 300                  // characters of a moderator's or a reporter's reason
	maxMuteTime   = 30 * 24 * time.Hour  // the longest mute
	maxBanTime    = 365 * 24 * time.Hour // the longest ban with an end (0 minutes: until lifted)
	maxRangeBans  = 200                  // ranges banned at once
	maxPageSize   = 100                  // reports or audit entries a page
	defPageSize   = 50
	maxSanctions  = 200 // sanctions in force listed
	minPrefixIPv4 = 8   // the widest IPv4 range a ban may take: a /8
	minPrefixIPv6 = 32  // ... and IPv6: a /32
)

// moderationRoutes registers the moderators' API, the players' reports
// and their notices.
func (s *Server) moderationRoutes(mux router) {
	mux.HandleFunc("GET /api/moderation/reports", s.handleModReports)
	mux.HandleFunc("GET /api/moderation/audit", s.handleModAudit)
	mux.HandleFunc("GET /api/moderation/sanctions", s.handleModSanctions)
	mux.HandleFunc("POST /api/moderation/actions", s.handleModAction)
	mux.HandleFunc("POST /api/reports", s.handleReport)                 // report.go
	mux.HandleFunc("POST /api/me/notices/{id}/seen", s.handleSeeNotice) // report.go
}

// codeNotModerator refuses the moderators' API to everyone else.
const codeNotModerator = "not_moderator"

// moderatorOf returns the moderator of the request; anyone else is
// answered 403 (false).
func (s *Server) moderatorOf(w http.ResponseWriter, r *http.Request) (store.Player, bool) {
	p, err := s.playerOf(r)
	if err != nil && store.Code(err) != store.ENOTFOUND {
		s.httpError(w, err)
		return p, false
	}
	ok := false
	if err == nil {
		if ok, err = s.store.IsModerator(r.Context(), p.ID); err != nil {
			s.httpError(w, err)
			return p, false
		}
	}
	if !ok {
		writeJSON(w, http.StatusForbidden, apiError{Error: "only the site's moderators may do this", Code: codeNotModerator})
		return p, false
	}
	return p, true
}

// pageOf reads ?before= and ?limit= (1 to maxPageSize, else 400 naming
// the field).
func pageOf(r *http.Request) (before int64, limit int, err error) {
	limit = defPageSize
	q := r.URL.Query()
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxPageSize {
			return 0, 0, fieldErrorf("limit", "1 to %d", maxPageSize)
		}
		limit = n
	}
	if v := q.Get("before"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			return 0, 0, fieldErrorf("before", "an ID from a previous page")
		}
		before = n
	}
	return before, limit, nil
}

type reportView struct {
	ID       int64      `json:"id"`
	Reporter string     `json:"reporter"`
	Player   string     `json:"player"`
	Name     string     `json:"name"`
	Table    string     `json:"table,omitempty"`
	Line     int        `json:"line,omitempty"`
	Text     string     `json:"text,omitempty"`
	Reason   string     `json:"reason"`
	At       time.Time  `json:"at"`
	Closed   *time.Time `json:"closed,omitempty"`
}

func reportViewOf(x store.Report) reportView {
	return reportView{ID: x.ID, Reporter: x.Reporter, Player: x.PlayerID, Name: x.Name, Table: x.TableID, Line: x.Line, Text: x.Text, Reason: x.Reason, At: x.At.UTC(),
		Closed: utcOrNil(x.Closed)}
}

// utcOrNil is the time in UTC, nil for the zero time (a field left out).
func utcOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

// handleModReports serves GET /api/moderation/reports: the reports, newest
// first, the open ones only unless ?all=1, a page at a time.
func (s *Server) handleModReports(w http.ResponseWriter, r *http.Request) {
	open := r.URL.Query().Get("all") != "1"
	servePage(s, w, r, "reports", func(before int64, limit int) ([]reportView, error) {
		list, err := s.store.Reports(r.Context(), store.ReportFilter{Open: open, Before: before, Limit: limit})
		return viewsOf(list, reportViewOf), err
	}, func(v reportView) int64 { return v.ID })
}

// servePage answers a moderator's page of a list, newest first:
// {"KEY":[…],"next":ID} with ?before= and ?limit= (pageOf); next is the
// ?before= of the following page, 0 after the last.
func servePage[V any](s *Server, w http.ResponseWriter, r *http.Request, key string, read func(before int64, limit int) ([]V, error), id func(V) int64) {
	if _, ok := s.moderatorOf(w, r); !ok {
		return
	}
	before, limit, err := pageOf(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	list, err := read(before, limit)
	if err != nil {
		s.httpError(w, err)
		return
	}
	var next int64
	if len(list) == limit {
		next = id(list[len(list)-1])
	}
	writeJSON(w, http.StatusOK, map[string]any{key: list, "next": next})
}

type auditView struct {
	ID         int64     `json:"id"`
	Moderator  string    `json:"moderator"`
	Name       string    `json:"name"`
	Action     string    `json:"action"`
	Target     string    `json:"target"`
	TargetName string    `json:"target_name,omitempty"` // the player's name, when the target is a player
	Detail     string    `json:"detail,omitempty"`
	Reason     string    `json:"reason"`
	At         time.Time `json:"at"`
}

func auditViewOf(e store.AuditEntry) auditView {
	return auditView{ID: e.ID, Moderator: e.Moderator, Name: e.Name, Action: e.Action, Target: e.Target, TargetName: e.TargetName, Detail: e.Detail, Reason: e.Reason, At: e.At.UTC()}
}

// handleModAudit serves GET /api/moderation/audit: the audit log, newest
// first, a page at a time.
func (s *Server) handleModAudit(w http.ResponseWriter, r *http.Request) {
	servePage(s, w, r, "entries", func(before int64, limit int) ([]auditView, error) {
		list, err := s.store.AuditLog(r.Context(), before, limit)
		return viewsOf(list, auditViewOf), err
	}, func(v auditView) int64 { return v.ID })
}

type modSanctionView struct {
	ID     int64              `json:"id"`
	Kind   store.SanctionKind `json:"kind"`
	Player string             `json:"player,omitempty"`
	Name   string             `json:"name,omitempty"`
	Range  string             `json:"range,omitempty"`
	Reason string             `json:"reason"`
	By     string             `json:"by"`
	At     time.Time          `json:"at"`
	Until  *time.Time         `json:"until,omitempty"`
}

func modSanctionViewOf(x store.Sanction) modSanctionView {
	return modSanctionView{ID: x.ID, Kind: x.Kind, Player: x.PlayerID, Name: x.Name, Range: x.Range, Reason: x.Reason, By: x.By, At: x.At.UTC(), Until: utcOrNil(x.Until)}
}

// handleModSanctions serves GET /api/moderation/sanctions: the sanctions
// in force, newest first (at most maxSanctions).
func (s *Server) handleModSanctions(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.moderatorOf(w, r); !ok {
		return
	}
	list, err := s.store.Sanctions(r.Context(), store.SanctionFilter{At: s.opt.Now(), Limit: maxSanctions})
	if err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"sanctions": viewsOf(list, modSanctionViewOf)})
}

// modAction is the body of POST /api/moderation/actions. Each action
// reads the fields it names and no other may be set.
type modAction struct {
	Action   string `json:"action"`             // mute, ban, lift, hide, rename, close, dismiss
	Player   string `json:"player,omitempty"`   // mute, ban, rename
	Range    string `json:"range,omitempty"`    // ban: an address range (CIDR) instead of a player
	Minutes  int    `json:"minutes,omitempty"`  // mute: 1 to 30 days; ban: 0 (until lifted) to a year
	Table    string `json:"table,omitempty"`    // hide, close
	Line     int    `json:"line,omitempty"`     // hide
	Name     string `json:"name,omitempty"`     // rename
	Sanction int64  `json:"sanction,omitempty"` // lift
	Report   int64  `json:"report,omitempty"`   // dismiss; with another action, the report it answers (closed with it)
	Reason   string `json:"reason"`
}

// checkRange returns the range a ban names, masked, or a 400 naming
// "range": a CIDR prefix no wider than a /8 (IPv4) or a /32 (IPv6).
func checkRange(raw string) (string, error) {
	if len(raw) > 64 {
		return "", fieldErrorf("range", "at most 64 characters")
	}
	p, err := netip.ParsePrefix(raw)
	if err != nil {
		return "", fieldErrorf("range", "not a CIDR range such as 203.0.113.0/24 or 2001:db8::/48")
	}
	if a := p.Addr(); a.Is4In6() && p.Bits() >= 96 {
		// An IPv4 range written as IPv6 (::ffff:203.0.113.0/120): clients'
		// IPv4 addresses are compared as IPv4.
		p = netip.PrefixFrom(a.Unmap(), p.Bits()-96)
	}
	p = p.Masked()
	if p.Addr().Is4() && p.Bits() < minPrefixIPv4 || p.Addr().Is6() && p.Bits() < minPrefixIPv6 {
		return "", fieldErrorf("range", "wider than a /%d (IPv4) or /%d (IPv6)", minPrefixIPv4, minPrefixIPv6)
	}
	return p.String(), nil
}

// checkMinutes returns the end of a sanction of kind lasting minutes from
// now (zero: until lifted), or a 400 naming "minutes".
func checkMinutes(kind store.SanctionKind, minutes int, now time.Time) (time.Time, error) {
	most := maxBanTime
	least := 0
	if kind == store.Mute {
		most, least = maxMuteTime, 1
	}
	if minutes < least || time.Duration(minutes)*time.Minute > most {
		return time.Time{}, fieldErrorf("minutes", "%d to %d", least, int(most/time.Minute))
	}
	if minutes == 0 {
		return time.Time{}, nil
	}
	return now.Add(time.Duration(minutes) * time.Minute), nil
}

// handleModAction serves POST /api/moderation/actions.
func (s *Server) handleModAction(w http.ResponseWriter, r *http.Request) {
	mod, ok := s.moderatorOf(w, r)
	if !ok {
		return
	}
	var a modAction
	if err := readJSON(r, &a); err != nil {
		s.httpError(w, err)
		return
	}
	reason, err := cleanLine("reason", a.Reason, maxReason)
	if err != nil {
		s.httpError(w, fieldErrorf("reason", "%s", clientMessage(err)))
		return
	}
	now := s.opt.Now()
	e := store.AuditEntry{Moderator: mod.ID, Action: a.Action, Reason: reason, At: now}
	var out any
	switch a.Action {
	case store.ActMute, store.ActBan:
		out, err = s.sanction(r.Context(), a, &e)
	case store.ActLift:
		e.Target = fmt.Sprintf("sanction %d", a.Sanction)
		if err = onlyFields(a, "sanction"); err == nil {
			err = s.store.LiftSanction(r.Context(), a.Sanction, e)
		}
	case store.ActHide:
		if err = onlyFields(a, "table", "line"); err == nil {
			e.Target = fmt.Sprintf("%s#%d", a.Table, a.Line)
			err = s.hideLine(r.Context(), a.Table, a.Line, e)
		}
	case store.ActRename:
		if err = onlyFields(a, "player", "name"); err == nil {
			e.Target = a.Player
			err = s.rename(r.Context(), a.Player, a.Name, e)
		}
	case store.ActClose:
		if err = onlyFields(a, "table"); err == nil {
			e.Target = a.Table
			err = s.closeTable(r.Context(), a.Table, e)
		}
	case store.ActDismiss:
		if err = onlyFields(a); err == nil {
			e.Target = fmt.Sprintf("report %d", a.Report)
			err = s.store.CloseReport(r.Context(), a.Report, e)
		}
	default:
		err = fieldErrorf("action", "one of mute, ban, lift, hide, rename, close, dismiss")
	}
	if err != nil {
		s.httpError(w, err)
		return
	}
	s.log.Info("moderation", "event", "moderation", "moderator", mod.ID, "action", e.Action, "target", e.Target, "detail", e.Detail, "reason", reason)
	if a.Report != 0 && a.Action != store.ActDismiss {
		// The report this action answers is closed with it; one closed
		// already (by another moderator) is no failure of the action.
		done := store.AuditEntry{Moderator: mod.ID, Action: store.ActDismiss, Target: fmt.Sprintf("report %d", a.Report), Detail: "answered by " + e.Action, Reason: reason, At: now}
		if err := s.store.CloseReport(r.Context(), a.Report, done); err != nil && store.Code(err) == "" {
			s.log.Error("report not closed", "report", a.Report, "err", err)
		}
	}
	if out == nil {
		out = map[string]string{"status": "done"}
	}
	writeJSON(w, http.StatusOK, out)
}

// onlyFields refuses the fields of an action it does not read (besides
// action, reason and report), and the fields it needs but lacks (minutes
// is checked by its bounds): a moderator's mistake is said, not ignored.
func onlyFields(a modAction, fields ...string) error {
	set := map[string]bool{"player": a.Player != "", "range": a.Range != "", "minutes": a.Minutes != 0, "table": a.Table != "",
		"line": a.Line != 0, "name": a.Name != "", "sanction": a.Sanction != 0}
	need := map[string]bool{}
	for _, f := range fields {
		need[f] = true
		if !set[f] && f != "minutes" {
			return fieldErrorf(f, "%s needs %s", a.Action, f)
		}
	}
	for _, f := range []string{"player", "range", "minutes", "table", "line", "name", "sanction"} {
		if set[f] && !need[f] {
			return fieldErrorf(f, "%s does not take %s", a.Action, f)
		}
	}
	if a.Action == store.ActDismiss && a.Report == 0 {
		return fieldErrorf("report", "dismiss needs report")
	}
	return nil
}

// sanction mutes or bans a player or (ban) an address range, and tells
// the player's connections on this node at once.
func (s *Server) sanction(ctx context.Context, a modAction, e *store.AuditEntry) (any, error) {
	kind := store.SanctionKind(a.Action)
	x := store.Sanction{Kind: kind, Reason: e.Reason, By: e.Moderator, At: e.At}
	var err error
	if a.Range != "" && kind == store.Ban {
		if err := onlyFields(a, "range", "minutes"); err != nil {
			return nil, err
		}
		if x.Range, err = checkRange(a.Range); err != nil {
			return nil, err
		}
		e.Target = x.Range
	} else {
		if err := onlyFields(a, "player", "minutes"); err != nil {
			return nil, err
		}
		x.PlayerID, e.Target = a.Player, a.Player
	}
	if x.Until, err = checkMinutes(kind, a.Minutes, e.At); err != nil {
		return nil, err
	}
	e.Detail = "until lifted"
	if !x.Until.IsZero() {
		e.Detail = "until " + x.Until.UTC().Format(time.RFC3339)
	}
	// One sanction of a kind on a target at a time: a second would only
	// confuse which holds (lift the first to change it); and the ranges
	// banned at once are bounded, as every check reads them.
	held, err := s.store.Sanctions(ctx, store.SanctionFilter{PlayerID: x.PlayerID, At: e.At, Limit: maxSanctionsRead})
	if err != nil {
		return nil, err
	}
	ranges := 0
	for _, h := range held {
		if h.Range != "" {
			ranges++
		}
		if h.Kind == kind && h.PlayerID == x.PlayerID && h.Range == x.Range {
			return nil, store.Errorf(store.ECONFLICT, "%s holds already (sanction %d): lift it first to change it", e.Target, h.ID)
		}
	}
	if x.Range != "" && ranges >= maxRangeBans {
		return nil, store.Errorf(store.ECONFLICT, "%d ranges are banned already, the most at once: lift one first", ranges)
	}
	got, err := s.store.AddSanction(ctx, x, *e)
	if err != nil {
		return nil, err
	}
	if got.PlayerID != "" {
		s.tellPlayer(got.PlayerID, sanctionMsgOf(got, ""))
	}
	return modSanctionViewOf(got), nil
}

// hideLine hides a chat line and sends it again, hidden, to the clients
// of its table on this node.
func (s *Server) hideLine(ctx context.Context, tableID string, n int, e store.AuditEntry) error {
	if err := s.store.HideChat(ctx, tableID, n, e); err != nil {
		return err
	}
	line, err := s.store.ChatLineAt(ctx, tableID, n)
	if err != nil {
		return err
	}
	s.mu.Lock()
	t := s.tables[tableID]
	s.mu.Unlock()
	if t == nil {
		if t, _ = s.finished.get(tableID); t == nil {
			return nil
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.chatLoaded {
		t.keepLine(line)
	}
	t.broadcastChat(line)
	return nil
}

// noticeView is a notice as its player reads it.
type noticeView struct {
	ID      int64     `json:"id"`
	Kind    string    `json:"kind"` // "renamed"
	OldName string    `json:"old_name"`
	NewName string    `json:"new_name"`
	Reason  string    `json:"reason"`
	At      time.Time `json:"at"`
}

func noticeViewOf(n store.Notice) noticeView {
	return noticeView{ID: n.ID, Kind: n.Kind, OldName: n.OldName, NewName: n.NewName, Reason: n.Reason, At: n.At.UTC()}
}

// noticeMsg tells a WebSocket client's player of notices (a new name).
type noticeMsg struct {
	Type    string       `json:"type"` // "notice"
	Notices []noticeView `json:"notices"`
}

// rename gives a player a name a moderator chose, as any name is checked,
// and tells the player: its connections on this node at once, and its
// next page (the notice of GET /api/me).
func (s *Server) rename(ctx context.Context, playerID, name string, e store.AuditEntry) error {
	name, err := CleanName(name)
	if err != nil {
		return err
	}
	if err := s.store.RenamePlayer(ctx, playerID, name, e); err != nil {
		return err
	}
	s.accounts.lookAlikes.Purge() // an account's new name may make a guest's look like it, an old one no longer
	if ns, err := s.store.Notices(ctx, playerID, maxNotices); err == nil {
		s.tellPlayer(playerID, noticeMsg{Type: "notice", Notices: viewsOf(ns, noticeViewOf)})
	}
	return nil
}

// closeTable ends a waiting or playing table for good: failed, with the
// moderator's reason, so unrated and in nobody's stats (an aborted game);
// its players are told at once.
func (s *Server) closeTable(ctx context.Context, id string, e store.AuditEntry) error {
	t, err := s.getTable(ctx, id)
	if err != nil {
		return err
	}
	t.mu.Lock()
	ended := t.meta.Status.Ended()
	t.mu.Unlock()
	if ended {
		return store.Errorf(store.ECONFLICT, "table %s has ended already", id)
	}
	e.Detail = "aborted, unrated"
	if err := s.store.LogAction(ctx, e); err != nil {
		return err
	}
	t.fail("closed by a moderator: " + e.Reason)
	t.mu.Lock()
	closed := t.meta.Status == store.Failed
	t.mu.Unlock()
	if !closed {
		return errors.New("server: the table was not closed")
	}
	return nil
}
