package server

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
)

// A message to a client is framed once, when it is made: its WebSocket
// frame (the header and the payload, unmasked as a server's frames are)
// goes to the network as it is. An update shared by thousands of watchers
// is encoded and framed once for them all; each watcher's writer sends the
// same bytes, with no copy and no work of the WebSocket library's of its
// own (write).

// message is one WebSocket text message, framed. It is never changed once
// made, so that any number of clients may send it.
type message struct {
	frame []byte // the whole frame: header, then payload
	head  int    // the header's length
}

// opText with FIN set: a text message in one frame.
const finText = 0x81

// newMessage frames payload as a text message in one frame (RFC 6455
// 5.2: a length under 126 in the header's second byte, else 126 and two
// bytes, else 127 and eight, in network order).
func newMessage(payload []byte) *message {
	var head [maxHead]byte
	h := frameHead(head[:], len(payload))
	frame := make([]byte, h+len(payload))
	copy(frame, head[:h])
	copy(frame[h:], payload)
	return &message{frame: frame, head: h}
}

// maxHead is the longest header of a server's frame.
const maxHead = 10

// frameHead writes the header of a text frame of n bytes at the start of
// head (maxHead bytes) and returns its length.
func frameHead(head []byte, n int) int {
	head[0] = finText
	switch {
	case n < 126:
		head[1] = byte(n)
		return 2
	case n <= 0xffff:
		head[1] = 126
		binary.BigEndian.PutUint16(head[2:], uint16(n))
		return 4
	default:
		head[1] = 127
		binary.BigEndian.PutUint64(head[2:], uint64(n))
		return 10
	}
}

// encodeMessage encodes v as JSON (as json.Marshal does) straight into
// its frame, the header written in front once the length is known: one
// buffer, where json.Marshal and newMessage made two copies of the
// payload. sizeHint is the payload's expected length.
func encodeMessage(v any, sizeHint int) (*message, error) {
	buf := bytes.NewBuffer(make([]byte, maxHead, maxHead+sizeHint+1))
	if err := json.NewEncoder(buf).Encode(v); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	b = b[:len(b)-1] // Encode's newline
	var head [maxHead]byte
	h := frameHead(head[:], len(b)-maxHead)
	copy(b[maxHead-h:], head[:h])
	return &message{frame: b[maxHead-h:], head: h}, nil
}

// payload returns the message's payload (the JSON sent).
func (m *message) payload() []byte { return m.frame[m.head:] }
