package server

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
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
		return "", fieldErrorf("name", "not valid UTF-8")
	}
	name = strings.Join(strings.Fields(norm.NFC.String(name)), " ")
	if name == "" {
		return "", fieldErrorf("name", "empty (1 to %d characters)", MaxName)
	}
	if n := utf8.RuneCountInString(name); n > MaxName {
		return "", fieldErrorf("name", "%d characters, at most %d", n, MaxName)
	}
	marks := 0
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return "", fieldErrorf("name", "%q is not a printable character", r)
		}
		if unicode.In(r, unicode.Mn, unicode.Me) {
			if marks++; marks > MaxMarks {
				return "", fieldErrorf("name", "more than %d accents or marks on one character", MaxMarks)
			}
		} else {
			marks = 0
		}
	}
	if looksLikeBot(name) {
		return "", fieldErrorf("name", "%q reads as a bot's name: the word \"bot\" is kept for the bots", name)
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
// rule field: those are rules.FieldError): 400 with the field named.
type fieldError struct {
	Field, Msg string
}

func (e *fieldError) Error() string { return e.Field + ": " + e.Msg }

func fieldErrorf(field, format string, args ...any) error {
	return &fieldError{field, fmt.Sprintf(format, args...)}
}
