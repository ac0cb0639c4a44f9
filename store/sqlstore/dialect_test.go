package sqlstore

import (
	"strings"
	"testing"
)

func testDialect(numbered bool) *Dialect {
	return &Dialect{
		Name:      "test",
		Numbered:  numbered,
		Words:     map[string]string{"true": "TRUE", "for update": " FOR UPDATE", "seat holder": "held(?)"},
		Index:     func(n string) string { return "INDEX(" + n + ")" },
		Unindexed: func(c string) string { return "~" + c },
	}
}

// TestDialectSQL: the words in braces become the dialect's, and with
// numbered arguments each ? becomes $1, $2, ... in order, those the words
// bring included.
func TestDialectSQL(t *testing.T) {
	q := `SELECT a FROM t {index t_a} WHERE b = ? AND c = {true} AND {unindexed d} = ? AND {seat holder} LIMIT ?{for update}`
	for _, tc := range []struct {
		numbered bool
		want     string
	}{
		{false, `SELECT a FROM t INDEX(t_a) WHERE b = ? AND c = TRUE AND ~d = ? AND held(?) LIMIT ? FOR UPDATE`},
		{true, `SELECT a FROM t INDEX(t_a) WHERE b = $1 AND c = TRUE AND ~d = $2 AND held($3) LIMIT $4 FOR UPDATE`},
	} {
		d := testDialect(tc.numbered)
		for range 2 { // the second answer is the cached one
			if got := d.SQL(q); got != tc.want {
				t.Errorf("numbered %v: SQL = %q, want %q", tc.numbered, got, tc.want)
			}
		}
	}
}

// TestDialectUnknownWord: a word the dialect does not know is a mistake
// in the store's own SQL, refused at once rather than sent on.
func TestDialectUnknownWord(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "{skip locked}") {
			t.Fatalf("an unknown word: recovered %v, want a panic naming it", r)
		}
	}()
	testDialect(false).SQL(`SELECT 1{skip locked}`)
}

func TestIn(t *testing.T) {
	q, args := In([]string{"a", "b", "c"})
	if q != "(?, ?, ?)" || len(args) != 3 || args[2] != "c" {
		t.Fatalf("In = %q %v", q, args)
	}
}
