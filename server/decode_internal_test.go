package server

import (
	"strings"
	"testing"
)

// TestDecodeStrict: a message is one JSON value with only known fields,
// white space around it allowed; anything after it, another value or a
// stray bracket, is refused as data after the message, and an unknown
// field or a broken value as the decoder says.
func TestDecodeStrict(t *testing.T) {
	for _, c := range []struct {
		in, err string
	}{
		{`{"type":"act","version":3}`, ""},
		{" \t\r\n{\"type\":\"act\"} \n\t ", ""},
		{`{"type":"act"}{"type":"act"}`, "data after the message"},
		{`{"type":"act"} {}`, "data after the message"},
		{`{"type":"act"}]`, "data after the message"},
		{`{"type":"act"}}`, "data after the message"},
		{`{"type":"act"} x`, "data after the message"},
		{`{"type":"act","extra":1}`, `unknown field "extra"`},
		{`{"type":"act"`, "unexpected EOF"},
		{``, "EOF"},
		{`[1]`, "cannot unmarshal array"},
	} {
		var m clientMsg
		err := decodeStrict([]byte(c.in), &m)
		if c.err == "" {
			if err != nil || m.Type != "act" {
				t.Errorf("%q: %v, %+v; want a message of type act", c.in, err, m)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: %v, want an error saying %q", c.in, err, c.err)
		}
	}
}

// BenchmarkDecodeStrict: an action's message as a player sends it, with
// its allocations (-benchmem).
func BenchmarkDecodeStrict(b *testing.B) {
	data := []byte(`{"type":"action","version":17,"id":"a17","action":{"kind":"keep","dice":[1,5,5]}}`)
	b.ReportAllocs()
	for b.Loop() {
		var m clientMsg
		if err := decodeStrict(data, &m); err != nil {
			b.Fatal(err)
		}
	}
}
