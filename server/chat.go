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
// Clients show them as text, never markup, and each viewer may mute a
// player on its own screen. docs/API.md, "Chat".

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
	Text   string    `json:"text"`
	At     time.Time `json:"at"`
}

// chatMsg carries chat lines: the last ones after a welcome (History), or
// one new line.
type chatMsg struct {
	Type    string         `json:"type"` // "chat"
	History bool           `json:"history,omitempty"`
	Lines   []chatLineView `json:"lines"`
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
	v := chatLineView{N: l.N, Player: l.PlayerID, Name: l.Name, Seat: -1, Text: l.Text, At: l.At.UTC()}
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
	t.chat, t.chatLoaded = lines, true
}

// sendChat sends the client the table's last chat lines, if it has any
// (a table nobody chatted at sends nothing more than its welcome). t.mu
// is held.
func (c *client) sendChat() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c.t.loadChat(ctx)
	if len(c.t.chat) > 0 {
		c.sendJSON(chatMsg{Type: "chat", History: true, Lines: viewsOf(c.t.chat, c.t.chatView)})
	}
}

// say answers a chat message: a seated player's line, within the rate, is
// stored and sent to everyone at the table.
func (c *client) say(m clientMsg) {
	t := c.t
	text, err := cleanChat(m.Text)
	if err != nil {
		c.replyError(m.ID, codeBadMessage, clientMessage(err))
		return
	}
	t.mu.Lock()
	seat := c.seat()
	if seat < 0 {
		t.mu.Unlock()
		c.replyError(m.ID, codeNotSeated, "only the players at the table can chat")
		return
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
	name := t.meta.Seats[seat].Name
	t.mu.Unlock()
	if !ok {
		c.replyError(m.ID, codeRateLimited, "you are chatting too fast: one line every two seconds")
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	line, err := t.srv.store.AddChat(ctx, store.ChatLine{TableID: t.id, PlayerID: c.player.ID, Name: name, Text: text, At: t.srv.opt.Now()}, maxChatLines)
	cancel()
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
	t.chat = append(t.chat, line)
	if len(t.chat) > chatHistory {
		t.chat = t.chat[len(t.chat)-chatHistory:]
	}
	msg := chatMsg{Type: "chat", Lines: []chatLineView{t.chatView(line)}}
	for cl := range t.clients {
		cl.sendJSON(msg)
	}
}
