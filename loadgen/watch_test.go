package loadgen

import "testing"

// versionOf reads the state's version of the server's messages: by its
// quick scan where the state is written as the server writes it, by
// decoding otherwise, and -1 without a state.
func TestVersionOf(t *testing.T) {
	for _, c := range []struct {
		msg  string
		want int
	}{
		// The server's shape: a log line's "version" comes after the state's.
		{`{"type":"update","table":{"actions":7},"state":{"players":[{"name":"Ann"}],"version":7,"actor":1},"log":[{"version":7}]}`, 7},
		{`{"type":"update","state":{"version":123456,"actor":0}}`, 123456},
		// Another shape: the state with spaces, its version first.
		{`{"type":"update","state" : {"version": 42}}`, 42},
		{`{"type":"welcome","state":null,"log":[]}`, -1},
		{`{"type":"welcome"}`, -1},
		{`not json`, -1},
	} {
		if got := versionOf([]byte(c.msg)); got != c.want {
			t.Errorf("versionOf(%s) = %d, want %d", c.msg, got, c.want)
		}
	}
}
