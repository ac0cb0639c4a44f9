package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/farkle/farkle/lang"
)

// maxTokenFile is the most bytes of a token file (play --online) read: a
// token farkle keeps is 43 characters and a newline, so a larger file was
// not written by farkle.
const maxTokenFile = 4 << 10

// bearerToken is what may be sent as a bearer token (RFC 6750's b64token),
// of which a server's tokens are a part.
var bearerToken = regexp.MustCompile(`^[A-Za-z0-9._~+/-]+=*$`)

// readToken returns the token kept in the file path, "" when there is no
// such file. A file it cannot read, one longer than maxTokenFile (read no
// further) or one that holds no token is an error that names the file and
// says to delete it.
func readToken(path string) (string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", &tokenFileError{path: path, err: err}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxTokenFile+1))
	if err != nil {
		return "", &tokenFileError{path: path, err: err}
	}
	if len(data) > maxTokenFile {
		return "", &tokenFileError{path: path, why: "cli.err.tokenFile.long"}
	}
	tok := strings.TrimSpace(string(data))
	if !bearerToken.MatchString(tok) {
		return "", &tokenFileError{path: path, why: "cli.err.tokenFile.noToken"}
	}
	return tok, nil
}

// tokenFileError says what is wrong with the token file at path and what
// to do, in the player's language (a tui.Saying): why is the catalogue's
// key of the reason, or err the system's.
type tokenFileError struct {
	path, why string
	err       error
}

func (e *tokenFileError) Error() string { return e.In(lang.Get(lang.Default)) }

// In implements tui.Saying.
func (e *tokenFileError) In(c *lang.Catalogue) string {
	why := ""
	if e.err != nil {
		why = e.err.Error()
	} else {
		why = c.Msg(e.why, "n", strconv.Itoa(maxTokenFile))
	}
	return c.Msg("cli.err.tokenFile", "path", e.path, "why", why)
}
