package sshserve

import (
	"crypto/rsa"
	"slices"
	"strconv"
	"strings"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/farkle/farkle/lang"
)

// refusal is why a key, a channel or a request is refused, as a message of
// the language catalogues and its values; the zero refusal refuses
// nothing.
type refusal struct {
	key string
	kv  []any
}

// ok reports whether r refuses nothing.
func (r refusal) ok() bool { return r.key == "" }

// in writes r in the language of lc, as one line the client is shown.
func (r refusal) in(lc *lang.Catalogue) string { return "farkle: " + lc.Msg(r.key, r.kv...) }

// english is r in English, for the server's log.
func (r refusal) english() string { return r.in(lang.Get(lang.Default)) }

// everyLanguage is r before a client has said its language (at
// authentication and at a channel's opening: SSH sends the environment,
// LANG with it, only on a session already open): one line, in English
// and then in each other language of the catalogues, " / " between.
func (r refusal) everyLanguage() string {
	said := []string{lang.Get(lang.Default).Msg(r.key, r.kv...)}
	for _, code := range lang.Codes() {
		if s := lang.Get(code).Msg(r.key, r.kv...); !slices.Contains(said, s) {
			said = append(said, s)
		}
	}
	return "farkle: " + strings.Join(said, " / ")
}

// minRSABits is the shortest RSA key taken.
const minRSABits = 2048

// weakKey says why a key is refused: DSA, or RSA shorter than minRSABits.
// A certificate is judged by the key it certifies.
func weakKey(key ssh.PublicKey) refusal {
	if cert, ok := key.(*gossh.Certificate); ok {
		key = cert.Key
	}
	switch key.Type() {
	case "ssh-dss": // DSA (golang.org/x/crypto/ssh.InsecureKeyAlgoDSA, deprecated)
		return refusal{key: "cli.ssh.keyDSA"}
	case gossh.KeyAlgoRSA:
		bits := 0
		if ck, ok := key.(gossh.CryptoPublicKey); ok {
			if rk, ok := ck.CryptoPublicKey().(*rsa.PublicKey); ok {
				bits = rk.N.BitLen()
			}
		}
		if bits < minRSABits { // bits written as ssh-keygen writes them, without separators
			return refusal{key: "cli.ssh.keyRSA", kv: []any{"min", strconv.Itoa(minRSABits), "bits", strconv.Itoa(bits)}}
		}
	}
	return refusal{}
}

// allowKey takes any key strong enough whose client has room for another
// session: an unknown key becomes a guest. A refused client is told why
// in an authentication banner.
func (s *Server) allowKey(ctx ssh.Context, key ssh.PublicKey) bool {
	c := connOf(ctx)
	fp := gossh.FingerprintSHA256(key)
	why := weakKey(key)
	if why.ok() {
		why = s.room(c, fp)
	}
	if why.ok() {
		return true
	}
	s.o.Logger.Info("ssh: key refused", "addr", ctx.RemoteAddr().String(), "key", fp, "why", why.english())
	c.banner(why.everyLanguage())
	return false
}
