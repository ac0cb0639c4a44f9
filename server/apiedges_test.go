package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/farkle/farkle/server"
)

// TestNamesOfBotsAndMarks: a name that reads as a bot's, or carries a flood of combining
// marks, is refused with 400 naming the field "name"; an ordinary name,
// accents included, is taken in NFC.
func TestNamesOfBotsAndMarks(t *testing.T) {
	ts := start(t, "", server.Options{})
	zalgo := "Z" + strings.Repeat("\u0336\u0322\u031b", 6) + "algo"
	for _, tc := range []struct {
		in, want string // want "": refused
		why      string
	}{
		{"Steady bot", "", "reads as a bot's name"},
		{"bot:perfect", "", "reads as a bot's name"},
		{"steady BOT 2", "", "reads as a bot's name"},
		{"B\u0308ot Ann", "", "reads as a bot's name"}, // a mark does not hide the word
		{zalgo, "", "more than 2 accents or marks on one character"},
		{"Abbot", "Abbot", ""},
		{"Robotnik", "Robotnik", ""},
		{"Jose\u0301  Lee", "Jos\u00e9 Lee", ""},  // NFC: e + combining acute is é
		{"Nguye\u0302\u0303n", "Nguy\u1ec5n", ""}, // two marks compose to one letter
		{"a\u0302\u0303", "\u1eab", ""},
	} {
		a := post(t, nil, ts.URL+"/api/players", jsonString(map[string]string{"name": tc.in}))
		if tc.want == "" {
			if a.Status != http.StatusBadRequest || a.Err.Field != "name" || !strings.Contains(a.Err.Error, tc.why) || !strings.HasPrefix(a.Err.Error, "name: ") {
				t.Errorf("name %q: %v, want 400 naming the field name: %s", tc.in, a, tc.why)
			}
			continue
		}
		var got struct{ Name string }
		if a.Status != http.StatusCreated || json.Unmarshal([]byte(a.Body), &got) != nil || got.Name != tc.want {
			t.Errorf("name %q: %v, want 201 with %q", tc.in, a, tc.want)
		}
	}
}

// FuzzCleanNameMarks: an accepted name never has more than MaxMarks marks
// in a row, nor the word "bot".
func FuzzCleanNameMarks(f *testing.F) {
	for _, s := range []string{"Ann", "Z\u0336\u0336\u0336", "bot", "a\u0302\u0303\u0301", "Steady bot", "x\u20dd\u20dd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := server.CleanName(in)
		if err != nil {
			return
		}
		run := 0
		for _, r := range out {
			if unicode.In(r, unicode.Mn, unicode.Me) {
				run++
			} else {
				run = 0
			}
			if run > server.MaxMarks {
				t.Fatalf("CleanName(%q) = %q: %d marks in a row", in, out, run)
			}
		}
		for _, w := range strings.FieldsFunc(strings.ToLower(out), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if w == "bot" {
				t.Fatalf("CleanName(%q) = %q has the word bot", in, out)
			}
		}
		if !utf8.ValidString(out) {
			t.Fatalf("CleanName(%q) = %q", in, out)
		}
	})
}

func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestAPIAnswers: a new visitor's /api/me is 200 null; a seat out of range
// and a list limit over the cap are 400 naming their field; a record before
// the first action has "actions":[]; rules sent without a name are "house
// rules".
func TestAPIAnswers(t *testing.T) {
	ts := start(t, "", server.Options{BotDelay: time.Hour})
	if a := send(t, nil, "GET", ts.URL+"/api/me", ""); a.Status != http.StatusOK || strings.TrimSpace(a.Body) != "null" {
		t.Errorf("/api/me of a new visitor: %v, want 200 null", a)
	}
	ann := newPlayer(t, ts, "Ann")
	bob := newPlayer(t, ts, "Bob")
	var tb struct {
		ID    string
		Rules struct{ Name string }
	}
	a := post(t, ann.HTTP, ts.URL+"/api/tables", `{"rules":{"game":{"target":5000}},"seats":[{"type":"me"},{"type":"human"}]}`)
	if a.Status != http.StatusCreated || json.Unmarshal([]byte(a.Body), &tb) != nil {
		t.Fatalf("new table: %v", a)
	}
	if tb.Rules.Name != server.HouseRules {
		t.Errorf("rules sent without a name are named %q, want %q", tb.Rules.Name, server.HouseRules)
	}
	for _, seat := range []int{99, 2, -1} {
		a := post(t, bob.HTTP, ts.URL+"/api/tables/"+tb.ID+"/join", jsonString(map[string]int{"seat": seat}))
		if a.Status != http.StatusBadRequest || a.Err.Field != "seat" || !strings.Contains(a.Err.Error, "seats 0 to 1") {
			t.Errorf("join seat %d: %v, want 400 naming the field seat", seat, a)
		}
	}
	// A taken seat is still a conflict.
	if a := post(t, bob.HTTP, ts.URL+"/api/tables/"+tb.ID+"/join", `{"seat":0}`); a.Status != http.StatusConflict {
		t.Errorf("join a taken seat: %v, want 409", a)
	}
	if a := send(t, nil, "GET", ts.URL+"/api/tables/"+tb.ID+"/record", ""); a.Status != http.StatusNotFound {
		t.Errorf("the record of a waiting table: %v, want 404 (as docs/API.md says)", a)
	}
	if a := post(t, bob.HTTP, ts.URL+"/api/tables/"+tb.ID+"/join", ``); a.Status != http.StatusOK {
		t.Fatalf("join: %v", a)
	}
	a = send(t, nil, "GET", ts.URL+"/api/tables/"+tb.ID+"/record", "")
	var rec struct {
		Actions json.RawMessage
		Rules   struct{ Name string }
	}
	if a.Status != http.StatusOK || json.Unmarshal([]byte(a.Body), &rec) != nil || string(rec.Actions) != "[]" || rec.Rules.Name != server.HouseRules {
		t.Errorf("the record before the first action: %v, want \"actions\":[] and the rules named %q", a, server.HouseRules)
	}
	for _, l := range []string{"0", "201", "1000", "x", "-3"} {
		if a := send(t, nil, "GET", ts.URL+"/api/tables?limit="+l, ""); a.Status != http.StatusBadRequest || a.Err.Field != "limit" {
			t.Errorf("limit=%s: %v, want 400 naming the field limit", l, a)
		}
	}
	var list []json.RawMessage
	if a := send(t, nil, "GET", ts.URL+"/api/tables?limit=200", ""); a.Status != http.StatusOK || json.Unmarshal([]byte(a.Body), &list) != nil || len(list) != 1 {
		t.Errorf("limit=200: %v", a)
	}
}
