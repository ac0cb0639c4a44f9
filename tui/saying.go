package tui

import (
	"github.com/farkle/farkle/lang"
)

// textError is an error said by a text of the catalogue, so that the
// command line and the screens say it in the player's language (it is a
// Saying). It is the sentinel is, when there is one (ErrPlayers).
type textError struct {
	key string
	kv  []any
	is  error
}

// playersErr is an error of the players given (ParsePlayers,
// ParseDragonPlayers): ErrPlayers, said by the catalogue's text of key.
func playersErr(key string, kv ...any) error { return &textError{key: key, kv: kv, is: ErrPlayers} }

// Error is the English text, after the sentinel's.
func (e *textError) Error() string {
	if e.is != nil {
		return e.is.Error() + ": " + e.In(nil)
	}
	return e.In(nil)
}

// Unwrap returns the sentinel the error is.
func (e *textError) Unwrap() error { return e.is }

// In is the text in the language of c (nil: English), implementing Saying.
func (e *textError) In(c *lang.Catalogue) string { return orEnglish(c).Msg(e.key, e.kv...) }
