package sshserve

import (
	"errors"
	"io"
	"sync"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/farkle/farkle/lang"
)

// maxEnvBytes bounds one environment variable a session keeps, its name
// and value together.
const maxEnvBytes = 1024

// sessionChannel serves a "session" channel. It takes the session's place
// under every cap for as long as the channel is open, refusing the
// channel with the reason when one is full; the channel's requests pass
// through the session's bounds (filter) before the SSH library sees them.
func (s *Server) sessionChannel(_ *ssh.Server, sc *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
	c := connOf(ctx)
	fp := ""
	if k, ok := ctx.Value(ssh.ContextKeyPublicKey).(ssh.PublicKey); ok {
		fp = gossh.FingerprintSHA256(k)
	}
	why, give := s.take(c, fp)
	if !why.ok() {
		s.o.Logger.Info("ssh: session refused", "addr", ctx.RemoteAddr().String(), "key", fp, "why", why.english())
		nc.Reject(gossh.ResourceShortage, why.everyLanguage()) //nolint:errcheck // refused either way
		return
	}
	defer give()
	st := &session{s: s, c: c, ctx: ctx, resized: make(chan Size, 1), gone: make(chan struct{})}
	defer func() { s.cells.give(st.cells) }()
	// The library's session handler, with this session's own handler: a
	// server of its own, of which the handler reads only these fields.
	one := &ssh.Server{Handler: s.handler(st)}
	ssh.EmulatePty()(one) //nolint:errcheck // sets a field
	ssh.DefaultSessionHandler(one, sc, boundChannel{NewChannel: nc, st: st}, ctx)
}

// boundChannel is a session channel whose requests pass through the
// session's filter.
type boundChannel struct {
	gossh.NewChannel
	st *session
}

func (b boundChannel) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := b.NewChannel.Accept()
	if err != nil {
		return nil, nil, err
	}
	out := make(chan *gossh.Request)
	go b.st.filter(reqs, out)
	return ch, out, nil
}

// session is what the server keeps of one session channel besides the
// library's: the window it was given, its environment's count, what its
// client is to be told, and its end.
type session struct {
	s   *Server
	c   *conn
	ctx ssh.Context

	// resized holds the latest window given since the program last read
	// one: a flood of window changes is folded into the last.
	resized chan Size
	// gone is closed when the channel's requests end: the client closed
	// the session, or the connection dropped.
	gone chan struct{}

	// The filter's own: whether a pty was given, its window, the
	// variables kept.
	pty    bool
	window Size
	cells  int // of the server's cells (Options.Cells), the window's
	env    int

	mu    sync.Mutex
	notes []refusal // to tell the client, each once, in its language
	told  int       // how many of notes were told
}

// filter passes the channel's requests on to the library at the
// connection's pace, bounded: a pty's window clamped to Options.MaxWindow,
// window changes served here (the program follows them through resized),
// the environment capped by Options.Env. It closes gone when the
// channel's requests end.
func (st *session) filter(reqs <-chan *gossh.Request, out chan<- *gossh.Request) {
	defer close(st.gone)
	defer close(out)
	for req := range reqs {
		if !st.c.wait(st.ctx) {
			req.Reply(false, nil) //nolint:errcheck // the connection is going
			continue
		}
		if st.check(req) {
			out <- req
		}
	}
}

// check bounds a request: it returns whether the library is to see it,
// having answered any it does not.
func (st *session) check(req *gossh.Request) bool {
	max := st.s.o.MaxWindow
	switch req.Type {
	case "pty-req":
		if st.pty {
			break // the library refuses a second one
		}
		payload, asked, given, err := fitPty(req.Payload, max)
		if err != nil {
			if errors.Is(err, errTermTooLong) {
				st.note(refusal{"cli.ssh.term", []any{"max", maxTermBytes}})
			}
			req.Reply(false, nil) //nolint:errcheck // gone: nothing to do
			return false
		}
		if payload, given, err = st.budget(payload, given, fitPty); err != nil {
			req.Reply(false, nil) //nolint:errcheck // gone: nothing to do
			return false
		}
		req.Payload, st.pty, st.window = payload, true, given
		st.clamped(asked, given)
	case "window-change":
		if !st.pty {
			req.Reply(false, nil) //nolint:errcheck // gone: nothing to do
			return false
		}
		payload, asked, given, err := fitWindow(req.Payload, st.window, max)
		if err == nil {
			_, given, err = st.budget(payload, given, func(p []byte, max Size) ([]byte, Size, Size, error) {
				return fitWindow(p, st.window, max)
			})
		}
		if err != nil {
			req.Reply(false, nil) //nolint:errcheck // gone: nothing to do
			return false
		}
		st.window = given
		st.clamped(asked, given)
		select { // the last window replaces one the program has not read
		case <-st.resized:
		default:
		}
		st.resized <- given
		req.Reply(true, nil) //nolint:errcheck // gone: nothing to do
		return false
	case "env":
		var kv struct{ Name, Value string }
		if gossh.Unmarshal(req.Payload, &kv) != nil {
			break // the library refuses it
		}
		var why refusal
		switch n := st.s.o.Env; {
		case len(kv.Name)+len(kv.Value) > maxEnvBytes:
			why = refusal{"cli.ssh.envLong", []any{"bytes", maxEnvBytes}}
		case n > 0 && st.env >= n:
			why = refusal{"cli.ssh.env", []any{"n", n}}
		}
		if !why.ok() {
			st.note(why)
			req.Reply(false, nil) //nolint:errcheck // gone: nothing to do
			return false
		}
		st.env++
	}
	return true
}

// errNoCells refuses a window when the server's cells are spent.
var errNoCells = errors.New("sshserve: no cells left for a window")

// budget takes the cells of the window given (payload) from the server's
// (Options.Cells), giving back the session's own: a window that does not
// fit is drawn smaller, refit by fit to the window that does; none at all
// is errNoCells, the session's window left as it was.
func (st *session) budget(payload []byte, given Size, fit func([]byte, Size) ([]byte, Size, Size, error)) ([]byte, Size, error) {
	got, held, ok := st.s.cells.take(given, st.cells)
	if !ok {
		st.note(refusal{"cli.ssh.cells", nil})
		return nil, Size{}, errNoCells
	}
	st.cells = held
	if got == given {
		return payload, given, nil
	}
	st.note(refusal{"cli.ssh.cellsShrunk", []any{"w", got.Cols, "h", got.Rows}})
	payload, _, got, err := fit(payload, got)
	return payload, got, err
}

// clamped notes a window larger than Options.MaxWindow.
func (st *session) clamped(asked, given Size) {
	max := st.s.o.MaxWindow
	if max.Cols > 0 && (asked.Cols > max.Cols || asked.Rows > max.Rows) {
		st.note(refusal{"cli.ssh.window", []any{"cols", asked.Cols, "rows", asked.Rows, "w", given.Cols, "h", given.Rows, "maxCols", max.Cols, "maxRows", max.Rows}})
	}
}

// note keeps r to tell the client (once a kind, the latest values) and
// logs its first of a kind.
func (st *session) note(r refusal) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for i, n := range st.notes {
		if n.key == r.key {
			if i >= st.told {
				st.notes[i] = r
			}
			return
		}
	}
	st.notes = append(st.notes, r)
	st.s.o.Logger.Info("ssh: request refused or bounded", "addr", st.ctx.RemoteAddr().String(), "why", r.english())
}

// tell writes the notes not yet told to w, one line each, in the language
// of lc.
func (st *session) tell(w io.Writer, lc *lang.Catalogue) {
	st.mu.Lock()
	notes := st.notes[st.told:]
	st.told = len(st.notes)
	st.mu.Unlock()
	for _, r := range notes {
		io.WriteString(w, r.in(lc)+"\n") //nolint:errcheck // gone: nobody to tell
	}
}
