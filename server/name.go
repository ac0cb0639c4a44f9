package server

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/text/unicode/norm"

	"github.com/farkle/farkle/store"
)

// MaxName is the longest display name, in characters.
const MaxName = 24

// MaxMarks is the most combining marks (accents) one character of a name
// may carry: enough for any written language, too few for the "Zalgo" text
// whose stacked marks run over the lines above and below.
const MaxMarks = 2

// CleanName returns a display name in Unicode NFC with spaces collapsed,
// or an error naming the field "name" that says what a name may be: 1 to
// MaxName printable characters, at most MaxMarks marks on one character,
// and no word "bot" (those names are the bots': "Steady bot", "bot:perfect").
func CleanName(name string) (string, error) {
	if !utf8.ValidString(name) {
		return "", nameError("utf8", 0, "not valid UTF-8")
	}
	name = strings.Join(strings.Fields(norm.NFC.String(name)), " ")
	if name == "" {
		return "", nameError("empty", MaxName, fmt.Sprintf("empty (1 to %d characters)", MaxName))
	}
	if n := utf8.RuneCountInString(name); n > MaxName {
		return "", nameError("long", MaxName, fmt.Sprintf("%d characters, at most %d", n, MaxName))
	}
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return "", nameError("unprintable", 0, fmt.Sprintf("%q is not a printable character", r))
		}
	}
	if mostMarks(name) > MaxMarks {
		return "", nameError("marks", MaxMarks, fmt.Sprintf("more than %d accents or marks on one character", MaxMarks))
	}
	if looksLikeBot(name) {
		return "", nameError("bot", 0, fmt.Sprintf("%q reads as a bot's name: the word \"bot\" is kept for the bots", name))
	}
	return name, nil
}

// looksLikeBot reports whether a name has the word "bot" in it, in any
// case and whatever marks or punctuation surround it: "Steady bot",
// "bot:perfect" and "Steady BOT 2" do, "Abbot" and "Robotnik" do not.
func looksLikeBot(name string) bool {
	words := strings.FieldsFunc(name, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.In(r, unicode.Mn, unicode.Me)
	})
	for _, w := range words {
		base := strings.Map(func(r rune) rune {
			if unicode.In(r, unicode.Mn, unicode.Me) {
				return -1
			}
			return r
		}, norm.NFD.String(w))
		if strings.EqualFold(base, "bot") {
			return true
		}
	}
	return false
}

// fieldError is a request refused because of one of its fields (not a
// rule field: those are rules.FieldError): 400 with the field named, or
// 409 when the field conflicts with what exists (Conflict).
type fieldError struct {
	Field, Msg string
	Conflict   bool
	// Reason and Max, where set, say why in a word a client can put in its
	// player's language (the name's "empty", "long", "bot", ...) and the
	// bound broken; Msg says it in English.
	Reason string
	Max    int
}

func (e *fieldError) Error() string { return e.Field + ": " + e.Msg }

// nameError is a display name refused: reason is the word clients
// translate, max the bound it broke (0: none), msg the English.
func nameError(reason string, max int, msg string) error {
	return &fieldError{Field: "name", Msg: msg, Reason: reason, Max: max}
}

func fieldErrorf(field, format string, args ...any) error {
	return &fieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// guestSuffix is added to the name a guest is shown by when an account's
// name is or looks like it, so that nobody takes the guest for the
// account: "Tessa (guest)" beside the account Tessa.
const guestSuffix = " (guest)"

// lookAlikeTTL is how long a node takes the account that a name looks
// like (or that none does) as known: a guest is shown with guestSuffix at
// most this late after such an account was made on another node.
const lookAlikeTTL = 30 * time.Second

// lookAlikeCache is how many names a node keeps the look-alike account of.
const lookAlikeCache = 8192

// lookAlikes is the cache of shownName: the ID of the account a name is or
// looks like, "" for none, by name, each for lookAlikeTTL from its look-up
// (by the server's clock). An entry past it is a miss; it leaves when the
// cache drops its least recently used. (The expiring cache of
// golang-lru ran a goroutine for each server that never ended.)
type lookAlikes struct {
	c   *lru.Cache[string, lookAlike]
	now func() time.Time
}

// lookAlike is a name's look-up: the account, and when.
type lookAlike struct {
	owner string
	at    time.Time
}

func newLookAlikes(now func() time.Time) *lookAlikes {
	c, err := lru.New[string, lookAlike](lookAlikeCache)
	if err != nil {
		panic(err) // only for a size below 1
	}
	return &lookAlikes{c: c, now: now}
}

// Get returns the account name looks like, if looked up within
// lookAlikeTTL.
func (l *lookAlikes) Get(name string) (string, bool) {
	v, ok := l.c.Get(name)
	if !ok || l.now().Sub(v.at) >= lookAlikeTTL {
		return "", false
	}
	return v.owner, true
}

// Add keeps the account name looks like, as of now.
func (l *lookAlikes) Add(name, owner string) { l.c.Add(name, lookAlike{owner, l.now()}) }

// Purge forgets every name.
func (l *lookAlikes) Purge() { l.c.Purge() }

// shownName returns the name the player is shown by: its own, or, for a
// guest whose name is or looks like an account's (store.NameLooks), that
// name with guestSuffix. What account a name looks like is kept for
// lookAlikeTTL, so that a request pays for the look-up once in that time.
func (s *Server) shownName(ctx context.Context, p store.Player) (string, error) {
	owner, ok := s.accounts.lookAlikes.Get(p.Name)
	if !ok {
		a, err := s.store.AccountLike(ctx, p.Name)
		if err != nil && store.Code(err) != store.ENOTFOUND {
			return "", err
		}
		owner = a.PlayerID
		s.accounts.lookAlikes.Add(p.Name, owner)
	}
	if owner == "" || owner == p.ID {
		return p.Name, nil
	}
	// An account of another player looks like it: p is a guest, or an
	// account made before look-alikes were refused.
	if _, err := s.store.Account(ctx, p.ID); err == nil {
		return p.Name, nil
	} else if store.Code(err) != store.ENOTFOUND {
		return "", err
	}
	return p.Name + guestSuffix, nil
}

// guestNameFree refuses (409, field name) a new guest's name that is or
// looks like an account's: a guest cannot pass for an account.
func (s *Server) guestNameFree(ctx context.Context, name string) error {
	a, err := s.store.AccountLike(ctx, name)
	if store.Code(err) == store.ENOTFOUND {
		return nil
	}
	if err != nil {
		return err
	}
	return &fieldError{Field: "name", Msg: fmt.Sprintf("%s is the name of an account, or looks like it (%s): choose another, or sign in if it is yours", name, a.Name), Conflict: true, Reason: "taken"}
}
