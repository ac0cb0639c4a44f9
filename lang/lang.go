// Package lang holds the texts the front ends show players, in every
// language the project speaks, and writes numbers as each language does.
//
// Each language is one JSON file in this directory, named by its code
// (en.json, nb.json): its name in itself, its locale, its thousands and
// decimal separators, and its messages by key. English is complete; any
// other catalogue may lack a text, which is then shown in English. A third
// language joins by adding its file: the terminal, the command line and the
// browser (which reads the same files from the server) all find it.
//
// A message may name values in braces, "{n} dice to throw", filled by Msg.
// A key with a ".one" variant uses it when the count n is 1.
package lang

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

//go:embed *.json
var files embed.FS

// Default is the language every catalogue falls back to.
const Default = "en"

// Catalogue is one language's texts.
type Catalogue struct {
	Code      string            `json:"-"`
	Name      string            `json:"name"`
	Locale    string            `json:"locale"`
	Thousands string            `json:"thousands"`
	Decimal   string            `json:"decimal"`
	Minus     string            `json:"minus"`
	Percent   string            `json:"percent"`
	Messages  map[string]string `json:"messages"`

	fallback *Catalogue
}

var load = sync.OnceValues(func() (map[string]*Catalogue, error) {
	names, err := fs.Glob(files, "*.json")
	if err != nil {
		return nil, err
	}
	all := map[string]*Catalogue{}
	for _, name := range names {
		b, err := files.ReadFile(name)
		if err != nil {
			return nil, err
		}
		c := &Catalogue{Code: strings.TrimSuffix(name, ".json")}
		if err := json.Unmarshal(b, c); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		all[c.Code] = c
	}
	en := all[Default]
	if en == nil {
		return nil, fmt.Errorf("no %s.json", Default)
	}
	for _, c := range all {
		if c != en {
			c.fallback = en
		}
	}
	return all, nil
})

func catalogues() map[string]*Catalogue {
	all, err := load()
	if err != nil {
		panic("lang: " + err.Error()) // the files are embedded: tested in lang_test.go
	}
	return all
}

// Codes lists the languages there are catalogues for, sorted.
func Codes() []string {
	var codes []string
	for c := range catalogues() {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	return codes
}

// Get returns the catalogue of the language code (as Parse reads it), or
// English when there is none.
func Get(code string) *Catalogue {
	all := catalogues()
	if c, ok := Parse(code); ok {
		return all[c]
	}
	return all[Default]
}

// Parse reads a language tag as a browser, LANG or --lang gives it
// ("nb", "nb-NO", "nb_NO.UTF-8", "no", "nn", "en_GB") and returns the code
// of its catalogue. Norwegian of any kind is read as Bokmål, the one
// written form the project has.
func Parse(tag string) (string, bool) {
	tag = strings.ToLower(strings.TrimSpace(tag))
	if i := strings.IndexAny(tag, "_-.@"); i >= 0 {
		tag = tag[:i]
	}
	if tag == "no" || tag == "nn" {
		tag = "nb"
	}
	if _, ok := catalogues()[tag]; ok {
		return tag, true
	}
	return "", false
}

// FromEnv returns the language the environment asks for, read as POSIX
// programs do: LC_ALL, then LC_MESSAGES, then LANG; the first set decides,
// and a language with no catalogue (or C, POSIX) is English. LANGUAGE, the
// GNU list of preferences, is read first when the locale is not C.
func FromEnv(getenv func(string) string) string {
	locale := ""
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if locale = getenv(v); locale != "" {
			break
		}
	}
	if l := strings.ToLower(locale); l == "" || l == "c" || l == "posix" || strings.HasPrefix(l, "c.") {
		return Default
	}
	for _, pref := range strings.Split(getenv("LANGUAGE"), ":") {
		if c, ok := Parse(pref); ok {
			return c
		}
	}
	if c, ok := Parse(locale); ok {
		return c
	}
	return Default
}

// Words says s in the language of c word by word: every lowercase word w
// with a key prefix+w is replaced by its text; other words (names in
// keep, dice, numbers) stay. For names made of a few fixed words, such as
// an action's "keep 1 5 then bank" (prefix "cli.act.").
func (c *Catalogue) Words(prefix, s string, keep []string) string {
	return word.ReplaceAllStringFunc(s, func(w string) string {
		if k := prefix + w; c.Has(k) && !slices.Contains(keep, w) {
			return c.Msg(k)
		}
		return w
	})
}

var word = regexp.MustCompile(`\b[a-z]+\b`)

// Has reports whether the catalogue or English has the key.
func (c *Catalogue) Has(key string) bool {
	_, ok := c.lookup(key)
	return ok
}

func (c *Catalogue) lookup(key string) (string, bool) {
	for k := c; k != nil; k = k.fallback {
		if s, ok := k.Messages[key]; ok {
			return s, true
		}
	}
	return "", false
}

// Msg returns the text of key with its {names} filled from kv, pairs of a
// name and a value. Whole numbers are written as the language writes them;
// a value named n that is 1 picks the key's ".one" variant when there is
// one. A key no catalogue has is returned as it is, so a missing text shows
// and a test can find it.
func (c *Catalogue) Msg(key string, kv ...any) string {
	if n, ok := countOf(kv); ok && n == 1 {
		if s, ok := c.lookup(key + ".one"); ok {
			return c.fill(s, kv)
		}
	}
	s, ok := c.lookup(key)
	if !ok {
		return key
	}
	return c.fill(s, kv)
}

func countOf(kv []any) (int64, bool) {
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i] == "n" {
			switch v := kv[i+1].(type) {
			case int:
				return int64(v), true
			case int64:
				return v, true
			}
		}
	}
	return 0, false
}

func (c *Catalogue) fill(s string, kv []any) string {
	if !strings.Contains(s, "{") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		name := s[i+1 : i+j]
		b.WriteString(c.value(name, kv))
		s = s[i+j+1:]
	}
	b.WriteString(s)
	return b.String()
}

func (c *Catalogue) value(name string, kv []any) string {
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i] != name {
			continue
		}
		switch v := kv[i+1].(type) {
		case int:
			return c.Num(int64(v))
		case int64:
			return c.Num(v)
		case string:
			return v
		case Said:
			return v.In(c)
		case fmt.Stringer:
			return v.String()
		default:
			return fmt.Sprint(v)
		}
	}
	return ""
}

// Said is a value of a message that is itself said in the message's
// language (a list of words, the reason a refusal gives): Msg writes it
// with In.
type Said interface {
	In(c *Catalogue) string
}

// Num writes a whole number with the language's thousands separator and
// minus sign: 10,000 and -50 in English, 10 000 and −50 in Norwegian (a
// no-break space and a minus sign), as the browser's toLocaleString does.
func (c *Catalogue) Num(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	if len(s) > 3 {
		var b strings.Builder
		for i, r := range s {
			if i > 0 && (len(s)-i)%3 == 0 {
				b.WriteString(c.Thousands)
			}
			b.WriteRune(r)
		}
		s = b.String()
	}
	if neg {
		s = c.Minus + s
	}
	return s
}

// Dec writes x with prec digits after the language's decimal separator
// (0.25 in English, 0,25 in Norwegian); the whole part is grouped as Num's.
func (c *Catalogue) Dec(x float64, prec int) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'f', prec, 64)
	}
	s := strconv.FormatFloat(x, 'f', prec, 64)
	whole, frac, _ := strings.Cut(s, ".")
	neg := strings.HasPrefix(whole, "-")
	w, _ := strconv.ParseInt(strings.TrimPrefix(whole, "-"), 10, 64)
	out := c.Num(w)
	if neg {
		out = c.Minus + out
	}
	if frac != "" {
		out += c.Decimal + frac
	}
	return out
}

// Pct writes p (a probability, 0 to 1) as a percentage with prec digits
// after the decimal separator, in the language's pattern: "75.7%" in
// English, "75,7 %" in Norwegian.
func (c *Catalogue) Pct(p float64, prec int) string {
	return strings.Replace(c.Percent, "{p}", c.Dec(100*p, prec), 1)
}

// JSON returns the catalogue file of the language code as it is embedded,
// for the browser, which formats with the same texts.
func JSON(code string) ([]byte, bool) {
	if _, ok := catalogues()[code]; !ok {
		return nil, false
	}
	b, err := files.ReadFile(code + ".json")
	return b, err == nil
}
