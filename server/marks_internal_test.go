package server

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// TestMostMarks: the longest run of combining marks after one character,
// by hand: none, runs broken by letters or spaces, enclosing marks (Me)
// counted with the others (Mn).
func TestMostMarks(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"", 0}, {"abc", 0}, {"e\u0301", 1}, {"e\u0301\u0300 a\u0301", 2}, {"\u0301\u0301\u0301", 3},
		{"a\u20dd\u0301", 2}, {"a\u0301b\u0301\u0301c\u0301", 2}, {"x" + strings.Repeat("\u0301", 199), 199},
	} {
		if got := mostMarks(c.text); got != c.want {
			t.Errorf("mostMarks(%+q) = %d, want %d", c.text, got, c.want)
		}
	}
}

// TestChatAndNamesShareTheMarks: over random texts of letters, combining
// marks (composing and not) and spaces, a chat line is refused for its
// marks exactly when a name would be.
func TestChatAndNamesShareTheMarks(t *testing.T) {
	alphabet := []rune{'a', 'e', 'x', 'Q', ' ', '\u0301', '\u0300', '\u0302', '\u0323', '\u20dd', '\u0489'}
	rng := rand.New(rand.NewPCG(8, 23))
	refused := 0
	for range 5000 {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		text := b.String()
		_, nameErr := CleanName(text)
		_, chatErr := cleanChat(text)
		nameMarks := nameErr != nil && strings.Contains(nameErr.Error(), "marks")
		chatMarks := chatErr != nil && strings.Contains(chatErr.Error(), "marks")
		if nameMarks != chatMarks {
			t.Fatalf("%+q: as a name %v, as a chat line %v", text, nameErr, chatErr)
		}
		if chatMarks {
			refused++
		}
	}
	if refused < 100 {
		t.Fatalf("only %d texts refused for their marks: the test proves little", refused)
	}
}

// FuzzCleanChat: whatever a client sends, a line kept is valid UTF-8 in
// NFC, 1 to maxChatText printable characters, at most MaxMarks marks on a
// character, and kept again unchanged.
func FuzzCleanChat(f *testing.F) {
	for _, s := range []string{"gg", "  <b>hi</b>\n  Bea ", "a" + strings.Repeat("\u0301", 199), "cafe\u0301", "\xff", "\u0344\u0344", strings.Repeat("é", 201)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		out, err := cleanChat(text)
		if err != nil {
			return
		}
		n := utf8.RuneCountInString(out)
		if !utf8.ValidString(out) || !norm.NFC.IsNormalString(out) || n < 1 || n > maxChatText || mostMarks(out) > MaxMarks || strings.TrimSpace(out) != out {
			t.Fatalf("%+q kept as %+q", text, out)
		}
		if again, err := cleanChat(out); err != nil || again != out {
			t.Fatalf("%+q kept as %+q, then as %+q, %v", text, out, again, err)
		}
	})
}
