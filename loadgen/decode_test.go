package loadgen

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/farkle/farkle/server/wsclient"
)

// An update a server sent (testdata/update.json, captured from farkle
// serve): the seat's decode reads the same type, code and state from it
// as the whole message's decode does.
func TestDecodeAsWhole(t *testing.T) {
	data, err := os.ReadFile("testdata/update.json")
	if err != nil {
		t.Fatal(err)
	}
	welcome := []byte(`{"type":"welcome","you":{"player_id":"p","seat":1},"table":{"id":"x"},"state":{"version":3,"actor":1,"legal":[{"type":"throw"}]}}`)
	refusal := []byte(`{"type":"error","code":"stale","message":"an older version","id":"7"}`)
	for _, raw := range [][]byte{data, welcome, refusal} {
		var whole wsclient.Msg
		if err := json.Unmarshal(raw, &whole); err != nil {
			t.Fatal(err)
		}
		var m message
		m.Code = "left over" // a decode starts afresh
		if err := m.decode(raw); err != nil {
			t.Fatal(err)
		}
		if m.Type != whole.Type || m.Code != whole.Code || m.You.Seat != whole.You.Seat || !reflect.DeepEqual(m.State, whole.State) {
			t.Errorf("%.60s: read as %+v, the whole message says type %q code %q seat %d state %+v", raw, m, whole.Type, whole.Code, whole.You.Seat, whole.State)
		}
	}
	if whole := (wsclient.Msg{}); json.Unmarshal(data, &whole) != nil || whole.State == nil || len(whole.State.Legal) == 0 {
		t.Fatal("the captured update has no state with legal actions")
	}
	var m message
	if err := m.decode([]byte(`{"type":`)); err == nil {
		t.Error("a cut message decoded")
	}
}

// BenchmarkDecodeUpdate: the load client's work for each update its
// players read, the whole message (wsclient.Msg, as before) against the
// seat's slim decode, and the slim decode with encoding/json (before).
//
//	go test ./loadgen -run '^$' -bench DecodeUpdate -benchmem
func BenchmarkDecodeUpdate(b *testing.B) {
	data, err := os.ReadFile("testdata/update.json")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("whole", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			var m wsclient.Msg
			if err := json.Unmarshal(data, &m); err != nil || m.State == nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("seat-encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		var m message
		for range b.N {
			m = message{}
			if err := json.Unmarshal(data, &m); err != nil || m.State == nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("seat", func(b *testing.B) {
		b.ReportAllocs()
		var m message
		for range b.N {
			if err := m.decode(data); err != nil || m.State == nil {
				b.Fatal(err)
			}
		}
	})
}
