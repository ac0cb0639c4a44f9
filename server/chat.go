package server

import (
	"context"
	"time"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
	"golang.org/x/time/rate"

	"github.com/farkle/farkle/store"
)

// The table chat: the players seated at a table send short lines of plain
// text ({"type":"chat","text":...}), kept with the table and sent to
// everyone watching it; a client gets the last lines after its welcome.
// Its watchers (a player not seated) chat in a channel of their own, which
// only watchers see: the players are not distracted or coached. Clients
// show lines as text, never markup, and each viewer may mute a player on
// its own screen. A moderator may hide a line (every client is sent it
// again, hidden, without its text) and mute or ban a player (sanction.go),
// who is told so instead of being ignored. docs/API.md, "Chat".

const (
	maxChatText  = 200 // characters in a line
	maxChatLines = 500 // lines a table keeps; then its chat is full
	chatHistory  = 50  // lines sent after a welcome
	chatEvery    = 2 * time.Second
	chatBurst    = 4 // lines at once before the rate holds
)

// chatLineView is a chat line on the wire.
type chatLineView struct {
	N      int       `json:"n"`
	Player string    `json:"player"`
	Name   string    `json:"name"`
	Seat   int       `json:"seat"` // -1 if the player no longer sits at the table
	Text   string    `json:"text"` // "" when hidden
	At     time.Time `json:"at"`
	Hidden bool      `json:"hidden,omitempty"` // hidden by a moderator
}

// chatMsg carries chat lines of one channel: the last ones after a
// welcome (History), or one new (or newly hidden) line.
type chatMsg struct {
	Type     string         `json:"type"`               // "chat"
	Watchers bool           `json:"watchers,omitempty"` // the watchers' channel
	History  bool           `json:"history,omitempty"`
	Lines    []chatLineView `json:"lines"`
}

// cleanChat returns a chat line as it is kept: in Unicode NFC, spaces
// collapsed (a line break is a space), or an EINVALID error saying what a
// line may be: 1 to maxChatText printable characters with at most MaxMarks
// accents or marks on one character, as names.
func cleanChat(text string) (string, error) {
	if utf8.ValidString(text) {
		text = norm.NFC.String(text)
	}
	if mostMarks(text) > MaxMarks { // first: a "Zalgo" line is refused for its marks, whatever its length
		return "", badRequest("chat: more than %d accents or marks on one character", MaxMarks)
	}
	return cleanLine("chat", text, maxChatText)
}

// chatView returns line as clients see it. t.mu is held.
func (t *table) chatView(l store.ChatLine) chatLineView {
	v := chatLineView{N: l.N, Player: l.PlayerID, Name: l.Name, Seat: -1, Text: l.Text, At: l.At.UTC(), Hidden: l.Hidden}
	if l.Hidden {
		v.Text = ""
	}
	for i, s := range t.meta.Seats {
		if s.PlayerID == l.PlayerID {
			v.Seat = i
		}
	}
	return v
}

// loadChat reads the table's last chat lines from the store the first
// time they are needed. t.mu is held.
func (t *table) loadChat(ctx context.Context) {
	if t.chatLoaded {
		return
	}
	lines, err := t.srv.store.Chat(ctx, t.id, chatHistory)
	if err != nil {
		t.srv.log.Error("chat not loaded", "table", t.id, "err", err)
		return
	}
	watching, err := t.srv.store.WatchersChat(ctx, t.id, chatHistory)
	if err != nil {
		t.srv.log.Error("chat not loaded", "table", t.id, "err", err)
		return
	}
	t.chat, t.watchersChat, t.chatLoaded = lines, watching, true
}

// sendChat sends the client the table's last chat lines of each channel it
// sees, if it has any (a table nobody chatted at sends nothing more than
// its welcome). t.mu is held.
func (c *client) sendChat() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c.t.loadChat(ctx)
	if len(c.t.chat) > 0 {
		c.sendJSON(chatMsg{Type: "chat", History: true, Lines: viewsOf(c.t.chat, c.t.chatView)})
	}
	if c.seat() < 0 && len(c.t.watchersChat) > 0 {
		c.sendJSON(chatMsg{Type: "chat", Watchers: true, History: true, Lines: viewsOf(c.t.watchersChat, c.t.chatView)})
	}
}

// broadcastChat sends a line of a channel to every client that sees the
// channel: the players' to all, the watchers' to those not seated. t.mu
// is held.
func (t *table) broadcastChat(line store.ChatLine) {
	t.sendAll(chatMsg{Type: "chat", Watchers: line.Watchers, Lines: []chatLineView{t.chatView(line)}},
		func(c *client) bool { return !line.Watchers || c.seat() < 0 })
}

// keepLine adds or replaces a line among the table's last lines of its
// channel. t.mu is held.
func (t *table) keepLine(line store.ChatLine) {
	kept := &t.chat
	if line.Watchers {
		kept = &t.watchersChat
	}
	for i := range *kept {
		if (*kept)[i].N == line.N {
			(*kept)[i] = line
			return
		}
	}
	*kept = append(*kept, line)
	if len(*kept) > chatHistory {
		*kept = (*kept)[len(*kept)-chatHistory:]
	}
}

// say answers a chat message: a seated player's line, within the rate, is
// stored and sent to everyone at the table; a watcher's goes to the
// watchers' channel. A muted or banned player is told so.
func (c *client) say(m clientMsg) {
	t := c.t
	text, err := cleanChat(m.Text)
	if err != nil {
		c.replyError(m.ID, codeBadMessage, clientMessage(err))
		return
	}
	if c.player == nil {
		c.replyError(m.ID, codeNotSeated, "only players can chat: choose a name first")
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if x, err := t.srv.sanctionOn(ctx, c.player.ID, c.addr, false); err != nil {
		t.srv.log.Error("sanctions not read", "err", err)
		c.replyError(m.ID, codeServer, "the line could not be checked; try again")
		return
	} else if x != nil {
		c.sendJSON(sanctionMsgOf(*x, m.ID))
		return
	}
	t.mu.Lock()
	seat := c.seat()
	name := c.player.Name
	if seat >= 0 {
		name = t.meta.Seats[seat].Name
	}
	if t.chatRate == nil {
		t.chatRate = map[string]*rate.Limiter{}
	}
	lim := t.chatRate[c.player.ID]
	if lim == nil {
		lim = rate.NewLimiter(rate.Every(chatEvery), chatBurst)
		t.chatRate[c.player.ID] = lim
	}
	ok := lim.Allow()
	t.mu.Unlock()
	if !ok {
		c.replyError(m.ID, codeRateLimited, "you are chatting too fast: one line every two seconds")
		return
	}
	line, err := t.srv.store.AddChat(ctx, store.ChatLine{TableID: t.id, PlayerID: c.player.ID, Name: name, Text: text, At: t.srv.opt.Now(), Watchers: seat < 0}, maxChatLines)
	if err != nil {
		if store.Code(err) == "" {
			t.srv.log.Error("chat not stored", "table", t.id, "err", err)
			c.replyError(m.ID, codeServer, "the line could not be saved; try again")
			return
		}
		c.replyError(m.ID, codeBadMessage, clientMessage(err))
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.keepLine(line)
	t.broadcastChat(line)
}
