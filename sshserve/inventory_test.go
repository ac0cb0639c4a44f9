package sshserve_test

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/farkle/farkle/internal/securitydoc"
	"github.com/farkle/farkle/internal/sshtest"
	"github.com/farkle/farkle/sshserve"
)

// How the server answers a probe, as the inventory's "answer" column says
// it: an authentication method it offers, a channel it opens, a request
// it answers true are "taken"; "refused" is the opposite; a request the
// protocol sends without asking for a reply (signal) is "no reply".
const (
	taken   = "taken"
	refused = "refused"
	noReply = "no reply"
)

// probed are the SSH requests tried besides those the inventory lists,
// by kind: every authentication method golang.org/x/crypto/ssh can
// offer, the channel types of RFC 4254 and OpenSSH, the requests of a
// session, and the global requests.
var probed = map[string][]string{
	"auth":    {"none", "password", "keyboard-interactive", "publickey", "gssapi-with-mic"},
	"channel": {"session", "direct-tcpip", "forwarded-tcpip", "x11", "auth-agent@openssh.com", "direct-streamlocal@openssh.com", "forwarded-streamlocal@openssh.com", "tun@openssh.com"},
	"session": {"pty-req", "x11-req", "env", "shell", "exec", "subsystem", "window-change", "xon-xoff", "signal", "break", "auth-agent-req@openssh.com", "eow@openssh.com", "exit-status"},
	"global":  {"tcpip-forward", "cancel-tcpip-forward", "streamlocal-forward@openssh.com", "cancel-streamlocal-forward@openssh.com", "keepalive@openssh.com", "no-more-sessions@openssh.com", "hostkeys-prove-00@openssh.com"},
}

// withoutReply are the session requests sent without asking for a reply
// (RFC 4254 6.9): the server answers none, so the probe can only see that
// the session takes it and goes on.
var withoutReply = map[string]bool{"signal": true}

// TestInventorySSHRequests: every SSH request the server takes is listed
// in docs/SECURITY.md's "SSH requests" with its answer, and every row's
// answer is what the server does. Each request is sent to a real server,
// the way a client would, so a new handler (in sshserve or in the SSH
// library) cannot go unlisted.
func TestInventorySSHRequests(t *testing.T) {
	doc, err := securitydoc.Load()
	if err != nil {
		t.Fatal(err)
	}
	path := doc.Path()
	rows, err := doc.Table("SSH requests")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]securitydoc.Row{}
	for _, row := range rows {
		kind, name, ok := strings.Cut(row.Key, " ")
		if _, known := probed[kind]; !ok || !known || name == "" || strings.Contains(name, " ") {
			t.Errorf("%s:%d: %q: an SSH request is written `KIND NAME`, KIND one of auth, channel, session, global", path, row.Line, row.Key)
			continue
		}
		if a := row.Cells[1]; a != taken && a != refused && a != noReply {
			t.Errorf("%s:%d: %q: the answer %q is none of %q, %q, %q", path, row.Line, row.Key, a, taken, refused, noReply)
			continue
		}
		listed[row.Key] = row
		if !slices.Contains(probed[kind], name) {
			probed[kind] = append(probed[kind], name)
		}
	}

	r := start(t, sshserve.Options{})
	key := sshtest.Key(t, 0)
	c, err := sshtest.Dial(r.ssh, "probe", key)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, kind := range []string{"auth", "channel", "session", "global"} {
		for _, name := range probed[kind] {
			var got string
			switch kind {
			case "auth":
				got = probeAuth(t, r.ssh, key, name)
			case "channel":
				got = probeChannel(t, c, name)
			case "session":
				got = probeSession(t, c, name)
			case "global":
				got = probeGlobal(t, c, name)
			}
			id := kind + " " + name
			row, ok := listed[id]
			switch {
			case !ok && got != refused:
				t.Errorf("%s: the server answers %q, but %s does not list it under \"SSH requests\": add its row with its bounds and the test that proves them", id, got, path)
			case ok && row.Cells[1] != got:
				t.Errorf("%s:%d: %s: the inventory says %q, the server answers %q", path, row.Line, id, row.Cells[1], got)
			}
		}
	}
}

// probeAuth says whether the server offers the authentication method:
// the client tries a method only when the server names it.
func probeAuth(t *testing.T, addr string, key gossh.Signer, method string) string {
	t.Helper()
	offered := false
	var auth []gossh.AuthMethod
	switch method {
	case "none": // every client tries it first; offered if it lets the client in
	case "password":
		auth = append(auth, gossh.PasswordCallback(func() (string, error) { offered = true; return "not the password", nil }))
	case "keyboard-interactive":
		auth = append(auth, gossh.KeyboardInteractive(func(_, _ string, qs []string, _ []bool) ([]string, error) {
			offered = true
			return make([]string, len(qs)), nil
		}))
	case "publickey":
		auth = append(auth, gossh.PublicKeysCallback(func() ([]gossh.Signer, error) { offered = true; return []gossh.Signer{key}, nil }))
	case "gssapi-with-mic":
		auth = append(auth, gossh.GSSAPIWithMICAuthMethod(&probeGSSAPI{offered: &offered}, "farkle"))
	default:
		t.Fatalf("no probe for the authentication method %q", method)
	}
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "probe", Auth: auth, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second})
	if err == nil {
		c.Close()
		offered = offered || method == "none"
	} else if !strings.Contains(err.Error(), "unable to authenticate") {
		t.Fatalf("auth %s: %v", method, err)
	}
	if offered {
		return taken
	}
	return refused
}

// probeGSSAPI is a GSS-API client that only notes that the server offered
// the method.
type probeGSSAPI struct{ offered *bool }

func (g *probeGSSAPI) InitSecContext(string, []byte, bool) ([]byte, bool, error) {
	*g.offered = true
	return nil, false, errors.New("a probe has no GSS-API credentials")
}
func (g *probeGSSAPI) GetMIC([]byte) ([]byte, error) { return nil, errors.New("a probe has no MIC") }
func (g *probeGSSAPI) DeleteSecContext() error       { return nil }

// probeChannel opens a channel of the type on c.
func probeChannel(t *testing.T, c *gossh.Client, typ string) string {
	t.Helper()
	var payload []byte
	switch typ {
	case "direct-tcpip", "forwarded-tcpip": // RFC 4254 7.1 and 7.2
		payload = gossh.Marshal(struct {
			Addr       string
			Port       uint32
			OriginAddr string
			OriginPort uint32
		}{"127.0.0.1", 22, "127.0.0.1", 40000})
	case "x11": // RFC 4254 6.3.2
		payload = gossh.Marshal(struct {
			OriginAddr string
			OriginPort uint32
		}{"127.0.0.1", 40000})
	}
	ch, reqs, err := c.OpenChannel(typ, payload)
	var oe *gossh.OpenChannelError
	if errors.As(err, &oe) {
		return refused
	}
	if err != nil {
		t.Fatalf("channel %s: %v", typ, err)
	}
	go gossh.DiscardRequests(reqs)
	ch.Close()
	return taken
}

// probeSession sends the request on a new session channel of c, after a
// pty-req for a window-change.
func probeSession(t *testing.T, c *gossh.Client, req string) string {
	t.Helper()
	ch, reqs, err := c.OpenChannel("session", nil)
	if err != nil {
		t.Fatalf("session for %s: %v", req, err)
	}
	defer ch.Close()
	go gossh.DiscardRequests(reqs)
	go io.Copy(io.Discard, ch)          //nolint:errcheck // what a shell or exec says before it ends
	go io.Copy(io.Discard, ch.Stderr()) //nolint:errcheck
	window := struct{ Columns, Rows, Width, Height uint32 }{80, 24, 0, 0}
	var payload []byte
	switch req {
	case "pty-req", "window-change":
		payload = gossh.Marshal(struct {
			Term                         string
			Columns, Rows, Width, Height uint32
			Modes                        string
		}{"xterm", 80, 24, 0, 0, ""})
		if req == "window-change" { // as a client sends it: once the shell runs
			for _, r := range []struct {
				name    string
				payload []byte
			}{{"pty-req", payload}, {"shell", nil}} {
				if ok, err := within(t, r.name, func() (bool, error) { return ch.SendRequest(r.name, true, r.payload) }); err != nil || !ok {
					t.Fatalf("%s before window-change: %v %v", r.name, ok, err)
				}
			}
			payload = gossh.Marshal(window)
		}
	case "env":
		payload = gossh.Marshal(struct{ Name, Value string }{"LANG", "C"})
	case "exec":
		payload = gossh.Marshal(struct{ Command string }{"lobby"})
	case "subsystem":
		payload = gossh.Marshal(struct{ Name string }{"sftp"})
	case "signal":
		payload = gossh.Marshal(struct{ Signal string }{"INT"})
	case "break":
		payload = gossh.Marshal(struct{ Length uint32 }{0})
	case "xon-xoff":
		payload = gossh.Marshal(struct{ ClientCanDo bool }{true})
	case "exit-status":
		payload = gossh.Marshal(struct{ Status uint32 }{0})
	case "x11-req":
		payload = gossh.Marshal(struct {
			Single   bool
			Protocol string
			Cookie   string
			Screen   uint32
		}{false, "MIT-MAGIC-COOKIE-1", "00", 0})
	}
	if withoutReply[req] {
		if _, err := ch.SendRequest(req, false, payload); err != nil {
			t.Fatalf("session %s: %v", req, err)
		}
		// Requests on a channel are answered in order: the answer to the
		// next shows the session took this one and goes on.
		if _, err := within(t, req, func() (bool, error) { return ch.SendRequest("farkle-probe@invalid", true, nil) }); err != nil {
			t.Fatalf("the session does not go on after %s: %v", req, err)
		}
		return noReply
	}
	ok, err := within(t, req, func() (bool, error) { return ch.SendRequest(req, true, payload) })
	if err != nil {
		t.Fatalf("session %s: %v", req, err)
	}
	if ok {
		return taken
	}
	return refused
}

// probeGlobal sends the global request on c.
func probeGlobal(t *testing.T, c *gossh.Client, req string) string {
	t.Helper()
	var payload []byte
	switch req {
	case "tcpip-forward", "cancel-tcpip-forward": // RFC 4254 7.1
		payload = gossh.Marshal(struct {
			Addr string
			Port uint32
		}{"127.0.0.1", 0})
	case "streamlocal-forward@openssh.com", "cancel-streamlocal-forward@openssh.com":
		payload = gossh.Marshal(struct{ Path string }{"/tmp/farkle-probe.sock"})
	}
	ok, err := within(t, req, func() (bool, error) { ok, _, err := c.SendRequest(req, true, payload); return ok, err })
	if err != nil {
		t.Fatalf("global %s: %v", req, err)
	}
	if ok {
		return taken
	}
	return refused
}

// within returns send's answer to the request, or fails the test when the
// server has not answered in ten seconds: a request it never answers
// holds up every later request of its session.
func within(t *testing.T, req string, send func() (bool, error)) (bool, error) {
	t.Helper()
	type answer struct {
		ok  bool
		err error
	}
	got := make(chan answer, 1)
	go func() {
		ok, err := send()
		got <- answer{ok, err}
	}()
	select {
	case a := <-got:
		return a.ok, a.err
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: no answer from the server in 10 s", req)
		return false, nil
	}
}
