package server

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/farkle/farkle/store"
)

// Reports: a player reports another player, or one line of a table's
// chat, with a reason, for the moderators to read (/moderate). A report
// of a line keeps the line's text as it was, so that hiding it loses no
// evidence. A player may make Options.ReportsPerHour reports an hour
// (counted in the store, so on every node at once).

// maxNotices is the most notices GET /api/me sends at once.
const maxNotices = 10

// withModerationDefaults fills the zero fields of moderation.
func (o *Options) withModerationDefaults() {
	setDefault(&o.ReportsPerHour, 10)
}

// reportRequest is the body of POST /api/reports.
type reportRequest struct {
	Player string `json:"player,omitempty"` // the player reported (a report of a player)
	Table  string `json:"table,omitempty"`  // with line: the chat line reported
	Line   int    `json:"line,omitempty"`
	Reason string `json:"reason"`
}

// handleReport serves POST /api/reports.
func (s *Server) handleReport(w http.ResponseWriter, r *http.Request) {
	p, err := s.playerOf(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	var body reportRequest
	if err := readJSON(r, &body); err != nil {
		s.httpError(w, err)
		return
	}
	reason, err := cleanLine("reason", body.Reason, maxReason)
	if err != nil {
		s.httpError(w, fieldErrorf("reason", "%s", clientMessage(err)))
		return
	}
	rep := store.Report{Reporter: p.ID, Reason: reason, At: s.opt.Now()}
	switch {
	case body.Table != "" || body.Line != 0:
		if body.Table == "" || body.Line < 1 || len(body.Table) > 64 {
			s.httpError(w, fieldErrorf("line", "a chat line is named by its table and its number (1 or more)"))
			return
		}
		line, err := s.store.ChatLineAt(r.Context(), body.Table, body.Line)
		if err != nil {
			s.httpError(w, err)
			return
		}
		if body.Player != "" && body.Player != line.PlayerID {
			s.httpError(w, fieldErrorf("player", "line %d was said by another player", body.Line))
			return
		}
		rep.PlayerID, rep.Name, rep.TableID, rep.Line, rep.Text = line.PlayerID, line.Name, line.TableID, line.N, line.Text
	case body.Player != "":
		if len(body.Player) > 64 {
			s.httpError(w, fieldErrorf("player", "at most 64 characters"))
			return
		}
		rep.PlayerID = body.Player
	default:
		s.httpError(w, fieldErrorf("player", "a report names a player, or a table and a chat line"))
		return
	}
	if rep.PlayerID == p.ID {
		s.httpError(w, fieldErrorf("player", "you cannot report yourself"))
		return
	}
	max := s.opt.ReportsPerHour
	if max < 0 {
		max = 0
	}
	got, err := s.store.AddReport(r.Context(), rep, max, rep.At.Add(-time.Hour))
	if errors.Is(err, store.ErrOverLimit) {
		w.Header().Set("Retry-After", strconv.Itoa(3600))
		writeJSON(w, http.StatusTooManyRequests, apiError{Error: fmt.Sprintf("you have made %d reports within the hour, the most (reports-per-hour): the moderators have them", max), Code: codeRateLimited})
		return
	}
	if err != nil {
		s.httpError(w, err)
		return
	}
	s.log.Info("report", "event", "report", "report", got.ID, "reporter", p.ID, "player", got.PlayerID, "table", got.TableID, "line", got.Line)
	writeJSON(w, http.StatusOK, map[string]any{"id": got.ID, "status": "reported"})
}

// meView is the answer of GET /api/me.
type meView struct {
	playerView
	Account   bool          `json:"account"`             // signed in with a passkey or recovery code, not a guest of this browser
	Moderator bool          `json:"moderator,omitempty"` // may use /moderate
	Notices   []noticeView  `json:"notices,omitempty"`   // from the moderators, not yet seen
	Sanction  *sanctionView `json:"sanction,omitempty"`  // a mute or ban in force
}

// moderationOfMe fills in what moderation tells the player of itself.
func (s *Server) moderationOfMe(r *http.Request, me *meView) error {
	var err error
	if me.Moderator, err = s.store.IsModerator(r.Context(), me.ID); err != nil {
		return err
	}
	ns, err := s.store.Notices(r.Context(), me.ID, maxNotices)
	if err != nil {
		return err
	}
	me.Notices = viewsOf(ns, noticeViewOf)
	x, err := s.sanctionOn(r.Context(), me.ID, s.clientAddr(r), false)
	if err != nil || x == nil {
		return err
	}
	v := sanctionViewOf(*x)
	me.Sanction = &v
	return nil
}

// handleSeeNotice serves POST /api/me/notices/{id}/seen: the player read
// the notice, which GET /api/me no longer sends.
func (s *Server) handleSeeNotice(w http.ResponseWriter, r *http.Request) {
	p, err := s.playerOf(r)
	if err != nil {
		s.httpError(w, err)
		return
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id < 1 {
		s.httpError(w, store.Errorf(store.ENOTFOUND, "no such notice"))
		return
	}
	if err := s.store.SeeNotice(r.Context(), p.ID, id); err != nil {
		s.httpError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "seen"})
}
