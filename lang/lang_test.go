package lang

import (
	"regexp"
	"sort"
	"strings"
	"testing"
)

var placeholder = regexp.MustCompile(`\{(\w+)\}`)

func names(s string) string {
	var ns []string
	for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
		ns = append(ns, m[1])
	}
	sort.Strings(ns)
	return strings.Join(ns, ",")
}

// Every catalogue is well formed, says only what English says (no key
// English lacks: a typo there would never be shown), and fills the same
// names in each text, so no value goes missing in translation.
func TestCataloguesAgree(t *testing.T) {
	en := Get("en")
	if len(en.Messages) == 0 {
		t.Fatal("English has no messages")
	}
	for _, code := range Codes() {
		c := Get(code)
		if c.Code != code || c.Name == "" || c.Locale == "" || c.Thousands == "" || c.Decimal == "" || c.Minus == "" || !strings.Contains(c.Percent, "{p}") {
			t.Errorf("%s: incomplete header: %+v", code, c)
		}
		for k, s := range c.Messages {
			e, ok := en.Messages[k]
			if !ok {
				if base, found := strings.CutSuffix(k, ".one"); found {
					e, ok = en.Messages[base]
				}
			}
			if !ok {
				t.Errorf("%s: key %q is not in en.json", code, k)
				continue
			}
			if names(s) != names(e) && !strings.HasSuffix(k, ".one") {
				t.Errorf("%s: %q fills {%s}, English fills {%s}", code, k, names(s), names(e))
			}
			if strings.TrimSpace(s) == "" && strings.TrimSpace(e) != "" {
				t.Errorf("%s: %q is empty", code, k)
			}
		}
	}
}

func TestNumbers(t *testing.T) {
	en, nb := Get("en"), Get("nb")
	for _, c := range []struct {
		n      int64
		en, nb string
	}{
		{0, "0", "0"}, {50, "50", "50"}, {999, "999", "999"}, {1000, "1,000", "1\u00a0000"},
		{10000, "10,000", "10\u00a0000"}, {1234567, "1,234,567", "1\u00a0234\u00a0567"}, {-500, "-500", "\u2212500"},
		{-12345, "-12,345", "\u221212\u00a0345"},
	} {
		if got := en.Num(c.n); got != c.en {
			t.Errorf("en.Num(%d) = %q, want %q", c.n, got, c.en)
		}
		if got := nb.Num(c.n); got != c.nb {
			t.Errorf("nb.Num(%d) = %q, want %q", c.n, got, c.nb)
		}
	}
	if got := nb.Dec(1234.5, 2); got != "1\u00a0234,50" {
		t.Errorf("nb.Dec = %q", got)
	}
	if got := en.Pct(0.757, 1); got != "75.7%" {
		t.Errorf("en.Pct = %q", got)
	}
	if got := nb.Pct(0.757, 1); got != "75,7\u00a0%" {
		t.Errorf("nb.Pct = %q", got)
	}
}

func TestParseAndEnv(t *testing.T) {
	for tag, want := range map[string]string{
		"nb": "nb", "nb-NO": "nb", "nb_NO.UTF-8": "nb", "no": "nb", "nn_NO": "nb", "NB": "nb",
		"en": "en", "en_GB.UTF-8": "en", "": "", "xx": "", "de_DE": "",
	} {
		got, ok := Parse(tag)
		if got != want || ok != (want != "") {
			t.Errorf("Parse(%q) = %q, %v; want %q", tag, got, ok, want)
		}
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{}, "en"},
		{map[string]string{"LANG": "nb_NO.UTF-8"}, "nb"},
		{map[string]string{"LANG": "nb_NO.UTF-8", "LC_ALL": "C"}, "en"},
		{map[string]string{"LANG": "en_US.UTF-8", "LC_MESSAGES": "nb_NO.UTF-8"}, "nb"},
		{map[string]string{"LANG": "de_DE.UTF-8", "LANGUAGE": "de:nb"}, "nb"},
		{map[string]string{"LANG": "C.UTF-8", "LANGUAGE": "nb"}, "en"},
		{map[string]string{"LANG": "fr_FR.UTF-8"}, "en"},
	} {
		if got := FromEnv(env(c.env)); got != c.want {
			t.Errorf("FromEnv(%v) = %q, want %q", c.env, got, c.want)
		}
	}
}

func TestMsg(t *testing.T) {
	c := &Catalogue{Code: "t", Thousands: ",", Minus: "-", Messages: map[string]string{
		"dice": "{n} dice to throw", "dice.one": "one die to throw", "hi": "Hi {name}, {missing}!",
	}}
	if got := c.Msg("dice", "n", 6); got != "6 dice to throw" {
		t.Error(got)
	}
	if got := c.Msg("dice", "n", 1); got != "one die to throw" {
		t.Error(got)
	}
	if got := c.Msg("dice", "n", 10000); got != "10,000 dice to throw" {
		t.Error(got)
	}
	if got := c.Msg("hi", "name", "Ann"); got != "Hi Ann, !" {
		t.Error(got)
	}
	if got := c.Msg("no.such.key"); got != "no.such.key" {
		t.Error(got)
	}
	// A text Norwegian lacks is English's.
	nb := Get("nb")
	nb2 := *nb
	nb2.Messages = map[string]string{}
	if got, want := nb2.Msg("nav.new"), Get("en").Messages["nav.new"]; got != want {
		t.Errorf("fallback: %q, want %q", got, want)
	}
	if _, ok := JSON("nb"); !ok {
		t.Error("no nb.json")
	}
	if _, ok := JSON("../lang"); ok {
		t.Error("JSON read a path")
	}
}

// saidWord is a value said in the language of the message it fills.
type saidWord string

func (w saidWord) In(c *Catalogue) string { return c.Msg(string(w)) }

// TestMsgSaysSaidValues: a value that is itself said in a language
// (Said) is written in the language of the message it fills.
func TestMsgSaysSaidValues(t *testing.T) {
	for _, code := range []string{"en", "nb"} {
		c := Get(code)
		got := c.Msg("tui.keep.refused", "dice", "2 2", "why", saidWord("dice.keep.none"))
		want := c.Msg("tui.keep.refused", "dice", "2 2", "why", c.Msg("dice.keep.none"))
		if got != want || !strings.Contains(got, c.Msg("dice.keep.none")) {
			t.Errorf("%s: %q, want %q", code, got, want)
		}
	}
}
