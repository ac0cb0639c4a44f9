package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strings"
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
		return "", tokenFileError(path, err.Error())
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxTokenFile+1))
	if err != nil {
		return "", tokenFileError(path, err.Error())
	}
	if len(data) > maxTokenFile {
		return "", tokenFileError(path, fmt.Sprintf("it is longer than %d bytes, the most a token file may be", maxTokenFile))
	}
	tok := strings.TrimSpace(string(data))
	if !bearerToken.MatchString(tok) {
		return "", tokenFileError(path, "it holds no token (one line of letters, digits and -._~+/)")
	}
	return tok, nil
}

// tokenFileError says what is wrong with the token file at path and what
// to do.
func tokenFileError(path, why string) error {
	return fmt.Errorf("the token file %s cannot be used: %s; delete it to sign in as a new guest", path, why)
}
