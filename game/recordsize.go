package game

import (
	"fmt"
	"io"
	"os"
)

// MaxRecordBytes is the most bytes of a game record that the programs
// read: a record file (farkle replay, verify, analyze) or a record a
// server sends (farkle play --online). It is 64 MiB: the longest game a
// server plays (10,000 rounds, farkle serve --max-turns) of six players
// takes some 12 MB at about 40 bytes an action, so a longer record was not
// made by a game, and a reader refuses it before it costs more memory.
const MaxRecordBytes = 64 << 20

// ReadRecordFile reads the record file at path, of at most MaxRecordBytes:
// a longer one is an error naming the file and the bound, read no further.
func ReadRecordFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxRecordBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxRecordBytes {
		return nil, fmt.Errorf("%s: longer than %d bytes (%d MiB), the most a game record may be", path, MaxRecordBytes, MaxRecordBytes>>20)
	}
	return data, nil
}
