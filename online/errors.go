package online

import (
	"context"
	"errors"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/farkle/farkle/lang"
)

// netError is a failure to reach the server, said as a sentence of the
// catalogue (what failed and what to do) rather than Go's wrapped error:
// tui.Saying, which the lobby and farkle's error line use.
type netError struct {
	key  string // the catalogue's sentence
	args []any
	err  error // what the network said, for errors.Is and logs
}

func (e *netError) Error() string               { return e.In(nil) }
func (e *netError) Unwrap() error               { return e.err }
func (e *netError) In(c *lang.Catalogue) string { return orEnglish(c).Msg(e.key, e.args...) }

func orEnglish(c *lang.Catalogue) *lang.Catalogue {
	if c == nil {
		return lang.Get(lang.Default)
	}
	return c
}

// hostOf is the host:port of a server's address, as a person names it.
func hostOf(base string) string {
	if u, err := url.Parse(base); err == nil && u.Host != "" {
		return u.Host
	}
	return base
}

// unreachable reports whether err is the network's: no answer, refused,
// a name that does not resolve, a connection cut, a timeout.
func unreachable(err error) bool {
	var ue *url.Error
	var ne net.Error
	var oe *net.OpError
	var de *net.DNSError
	switch {
	case errors.As(err, &oe), errors.As(err, &de), errors.As(err, &ue), errors.As(err, &ne):
		return true
	case errors.Is(err, context.DeadlineExceeded):
		return true
	}
	// The WebSocket library wraps a cut connection in its own words.
	s := err.Error()
	return strings.Contains(s, "failed to read frame") || strings.Contains(s, "failed to get reader") || strings.Contains(s, "EOF")
}

// said returns err as a sentence when it is the network's: "the server at
// 127.0.0.1:1 does not answer; is farkle serve running?"; any other error
// is returned as it is.
func said(base string, err error) error {
	if err == nil || !unreachable(err) {
		return err
	}
	var ne *netError
	if errors.As(err, &ne) {
		return err
	}
	return &netError{key: "online.noAnswer", args: []any{"server", hostOf(base)}, err: err}
}

// lostFor is the end of a table's link that did not come back: the
// connection to the server was lost and no reconnect worked for limit.
func lostFor(base string, limit time.Duration, err error) error {
	return &netError{key: "online.lostFor", args: []any{"server", hostOf(base), "time", limit.String()}, err: err}
}

// tableGone is the end of a link whose table the server no longer has.
func tableGone(id string, err error) error {
	return &netError{key: "online.tableGone", args: []any{"table", id}, err: err}
}

// nameWhy is why the server refused a name, from its error body: its
// reason word said from the catalogue (online.nameWhy.REASON, with the
// bound broken as {max}), or the server's English where the catalogue has
// no such word.
type nameWhy struct {
	Error  string `json:"error"`
	Reason string `json:"reason"`
	Max    int    `json:"max"`
}

func (w nameWhy) In(c *lang.Catalogue) string {
	c = orEnglish(c)
	if key := "online.nameWhy." + w.Reason; w.Reason != "" && c.Has(key) {
		return c.Msg(key, "max", w.Max)
	}
	return w.Error
}
