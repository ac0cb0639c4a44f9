package server

import "encoding/binary"

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
	var head [10]byte
	head[0] = finText
	n := len(payload)
	h := 2
	switch {
	case n < 126:
		head[1] = byte(n)
	case n <= 0xffff:
		head[1] = 126
		binary.BigEndian.PutUint16(head[2:], uint16(n))
		h = 4
	default:
		head[1] = 127
		binary.BigEndian.PutUint64(head[2:], uint64(n))
		h = 10
	}
	frame := make([]byte, h+n)
	copy(frame, head[:h])
	copy(frame[h:], payload)
	return &message{frame: frame, head: h}
}

// payload returns the message's payload (the JSON sent).
func (m *message) payload() []byte { return m.frame[m.head:] }
