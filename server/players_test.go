package server_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/farkle/farkle/server/wsclient"
)

// step makes one action of p and waits for its update; it returns the
// round trip.
func step(p *player, ctx context.Context) (time.Duration, error) {
	typ, d := choose(p.Last)
	t0 := time.Now()
	if err := p.Act(ctx, p.Last.Version, typ, d); err != nil {
		return 0, err
	}
	v := p.Last.Version
	for p.Last.Version == v {
		m, err := p.Read(ctx)
		if err != nil {
			return 0, err
		}
		if m.Type == "error" {
			return 0, fmt.Errorf("%s: %s", m.Code, m.Message)
		}
	}
	return time.Since(t0), nil
}

// playThrough plays p's seat to the end of the game like playToEnd, but
// takes the refusals of a node whose database is failing as a client
// should: "server_error" is tried again, "stale" waits for the state on its
// way.
func playThrough(p *player, ctx context.Context) error {
	acted := -1
	for p.Last == nil || p.Last.Phase != "over" {
		if p.Last != nil && p.Last.Actor == p.Seat && p.Seat >= 0 && acted != p.Last.Version {
			acted = p.Last.Version
			typ, d := choose(p.Last)
			if err := p.Act(ctx, p.Last.Version, typ, d); err != nil {
				return err
			}
		}
		m, err := p.Read(ctx)
		if err != nil {
			return err
		}
		if m.Type == "error" {
			switch m.Code {
			case "server_error":
				acted = -1
			case "stale", "not_your_turn":
			default:
				return errors.New(m.Code + ": " + m.Message)
			}
		}
	}
	return nil
}

// watchToEnd reads the table's messages until its game is over.
func watchToEnd(p *player, ctx context.Context) error {
	for p.Last == nil || p.Last.Phase != "over" {
		m, err := p.Read(ctx)
		if err != nil {
			return err
		}
		if m.Type == "error" || m.Type == "failed" {
			return errors.New(m.Type + " " + m.Code + ": " + m.Message)
		}
	}
	return nil
}

// playTurn plays p's turn with choose until another seat is to act.
func playTurn(p *player, ctx context.Context) error {
	for p.Last.Actor == p.Seat && p.Last.Phase != "over" {
		typ, d := choose(p.Last)
		if err := p.Act(ctx, p.Last.Version, typ, d); err != nil {
			return err
		}
		v := p.Last.Version
		for p.Last.Version == v {
			m, err := p.Read(ctx)
			if err != nil {
				return err
			}
			if m.Type == "error" {
				return fmt.Errorf("%s: %s", m.Code, m.Message)
			}
		}
	}
	return nil
}

// playUntilMyTurn plays the seat's decisions (choose) until it is to act
// at the start of its turn number turn (from 1; a roll-off decision counts
// as the start of none), and returns there. The game must not end first.
func playUntilMyTurn(p *player, ctx context.Context, turn int) error {
	started := 0
	for {
		if p.Last != nil && p.Last.Phase == "over" {
			return errors.New("the game ended first")
		}
		if p.Last != nil && p.Last.Actor == p.Seat && p.Seat >= 0 {
			if p.Last.Phase == "play" && p.Last.Step == "throw" && p.Last.Total == 0 {
				if started++; started == turn {
					return nil
				}
			}
			typ, d := choose(p.Last)
			if err := p.Act(ctx, p.Last.Version, typ, d); err != nil {
				return err
			}
			v := p.Last.Version
			for p.Last.Version == v {
				if _, err := p.Read(ctx); err != nil {
					return err
				}
			}
			continue
		}
		if _, err := p.Read(ctx); err != nil {
			return err
		}
	}
}

// client2 is the same player (same cookies) talking to another server URL.
func client2(p *player, base string) *wsclient.Client {
	c := wsclient.New(base)
	c.Header = http.Header{"Authorization": {"Bearer " + p.Token}}
	c.HTTP.Transport = bearer{p.Token}
	return c
}
