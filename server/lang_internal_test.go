package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/farkle/farkle/dice"
	"github.com/farkle/farkle/engine"
	"github.com/farkle/farkle/lang"
	"github.com/farkle/farkle/rules"
)

// TestLangOf: ?lang= names the page's language as a browser does (nb,
// nb-NO, no); anything else, a language with no catalogue, an empty or a
// long value, is English.
func TestLangOf(t *testing.T) {
	for q, want := range map[string]string{
		"lang=nb": "nb", "lang=nb-NO": "nb", "lang=no": "nb", "lang=en": "en", "lang=EN-gb": "en",
		"": "en", "lang=": "en", "lang=xx": "en", "lang=de": "en", "lang=nb%00": "en",
		"lang=" + strings.Repeat("n", 1<<12): "en", "lang=nb" + strings.Repeat("-x", 20): "en",
		"lang=" + url.QueryEscape("<script>"): "en",
	} {
		r := httptest.NewRequest("GET", "/ws/tables/x?"+q, nil)
		if got := langOf(r).Code; got != want {
			t.Errorf("?%.40s: %s, want %s", q, got, want)
		}
	}
}

// keepState plays a seeded game of classic rules until the first player
// to act has a throw to keep from.
func keepState(t *testing.T) engine.State {
	t.Helper()
	s, err := engine.New(rules.MustPreset("classic"), []string{"Ann", "Bo"})
	if err != nil {
		t.Fatal(err)
	}
	src := dice.NewSource(dice.SeedFrom("localize"))
	for i := 0; i < 100; i++ {
		if s.Phase == engine.PhasePlay && s.Step == engine.StepKeep {
			return s
		}
		legal := s.Legal()
		a := legal[len(legal)-1]
		if s.Phase != engine.PhasePlay {
			a = engine.RollOffBy(s.Actor())
		}
		if s, _, err = engine.Apply(s, a, src); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("no keep in 100 actions")
	return s
}

// TestDescribeChoices: a hint's texts are written by the server in the
// page's language from the choice itself (the dice by their faces, the
// points and dice left from the game, what follows a keep from the
// advisor's Then): English "keep 1 5 (150), then throw 4", Norwegian
// "behold 1 5 (150), så kast 4", numbers grouped as each language does.
func TestDescribeChoices(t *testing.T) {
	s := keepState(t)
	var keep engine.Action
	for _, a := range s.Legal() {
		if a.Kind == engine.Keep {
			keep = a
		}
	}
	pts, _ := s.Table().Points(keep.Dice)
	left := s.Throw.N() - keep.Dice.N()
	if left == 0 {
		left = 6
	}
	en, nb := lang.Get("en"), lang.Get("nb")
	n := func(c *lang.Catalogue, x int) string { return c.Num(int64(x)) }
	want := map[string][]string{
		"en": {
			fmt.Sprintf("keep %s (%s), then throw %d", keep.Dice, n(en, int(pts)), left),
			fmt.Sprintf("keep %s (%s), then bank %s", keep.Dice, n(en, int(pts)), n(en, s.Total+int(pts))),
			fmt.Sprintf("keep %s (%s)", keep.Dice, n(en, int(pts))),
			fmt.Sprintf("throw %d", s.ToThrow()), fmt.Sprintf("bank %s", n(en, s.Total)),
		},
		"nb": {
			fmt.Sprintf("behold %s (%s), så kast %d", keep.Dice, n(nb, int(pts)), left),
			fmt.Sprintf("behold %s (%s), så sett inn %s", keep.Dice, n(nb, int(pts)), n(nb, s.Total+int(pts))),
			fmt.Sprintf("behold %s (%s)", keep.Dice, n(nb, int(pts))),
			fmt.Sprintf("kast %d", s.ToThrow()), fmt.Sprintf("sett inn %s", n(nb, s.Total)),
		},
	}
	choices := []Choice{{Action: keep, Then: engine.Throw}, {Action: keep, Then: engine.Bank}, {Action: keep}, {Action: engine.Action{Kind: engine.Throw}}, {Action: engine.Action{Kind: engine.Bank}}}
	for code, texts := range want {
		adv := &Advice{Measure: "points", Choices: append([]Choice(nil), choices...)}
		describeChoices(lang.Get(code), s, adv)
		for i, ch := range adv.Choices {
			if ch.Text != texts[i] {
				t.Errorf("%s: choice %d reads %q, want %q", code, i, ch.Text, texts[i])
			}
		}
	}
}

// TestLangRoutes: the browser's catalogues are the embedded files of
// package lang, and the index lists every language by its name; anything
// else under /static/lang/ is not found.
func TestLangRoutes(t *testing.T) {
	mux := http.NewServeMux()
	(&Server{}).langRoutes(mux)
	get := func(path string) (int, string) {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec.Code, rec.Body.String()
	}
	code, body := get("/static/lang/index.json")
	var index map[string]string
	if err := json.Unmarshal([]byte(body), &index); code != 200 || err != nil || len(index) != len(lang.Codes()) {
		t.Fatalf("index: %d %q (%v)", code, body, err)
	}
	for _, c := range lang.Codes() {
		if index[c] != lang.Get(c).Name || index[c] == "" {
			t.Errorf("index names %s %q, want %q", c, index[c], lang.Get(c).Name)
		}
		want, _ := lang.JSON(c)
		if code, body := get("/static/lang/" + c + ".json"); code != 200 || body != string(want) {
			t.Errorf("%s.json: %d, %d bytes, want the embedded %d", c, code, len(body), len(want))
		}
	}
	for _, p := range []string{"/static/lang/xx.json", "/static/lang/nb", "/static/lang/lang.go", "/static/lang/..%2fen.json"} {
		if code, _ := get(p); code != 404 {
			t.Errorf("%s: %d, want 404", p, code)
		}
	}
}
