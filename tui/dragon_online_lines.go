package tui

import (
	"errors"

	"github.com/farkle/farkle/dragon"
)

// The line mode of Dragon Farkle at a server (RunOnlineLines): dragonLines's
// side of onlineLines.

func (l *dragonLines) act() error            { return nil }             // every move of Dragon Farkle is the player's
func (l *dragonLines) play(line string) bool { return l.command(line) } // which knows when the game waits
func (l *dragonLines) over() bool            { return l.g.Over() }
func (l *dragonLines) winners() string       { return l.g.WinnersIn(l.cat()) }
func (l *dragonLines) link() *online         { return l.g.online }
func (l *dragonLines) failed(why string) {
	l.say("%s", l.cat().Msg("dragon.lines.error", "why", why))
}

// take implements onlineLines. A brawl begun by the update is announced
// as the local line mode announces it.
func (l *dragonLines) take(u RemoteUpdate) {
	g := l.g
	evs := g.remoteUpdate(u)
	was := l.brawling
	l.brawling = g.State().Mode == dragon.Brawling
	if u.Game == nil || u.Reset {
		return
	}
	var a dragon.Action
	if !was {
		if e, ok := dragonEvent(evs, dragon.EvBrawl); ok {
			a = dragon.Brawl(e.Target)
		} else if s := g.State(); l.brawling && s.Brawl != nil {
			a = dragon.Brawl(s.Brawl.Defender)
		}
	}
	l.played(a, evs)
	l.prompt()
}

// send sends a for this terminal's seat, checked here first: a refusal
// is printed and nothing is sent.
func (l *dragonLines) send(a dragon.Action) {
	err := l.g.send(a)
	var refused errNotSent
	switch {
	case err == nil:
	case errors.As(err, &refused):
		l.failed(l.g.reasonIn(l.cat(), refused.err))
	default:
		l.failed(userError(l.cat(), err))
	}
}
