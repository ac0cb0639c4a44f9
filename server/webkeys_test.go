package server_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// webKeys reads the page's sources (server/web/*.js and *.html) and returns
// the message keys they name: every quoted literal shaped as a key under a
// prefix the catalogue has (web.*, err.*, status.*, ...), and the data-msg
// attributes; and the static heads of keys built in a template
// (msg(`web.field.${path}`) gives "web.field.").
func webKeys(t *testing.T, prefixes map[string]bool) (keys map[string][]string, heads map[string][]string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("web", "*.*"))
	if err != nil {
		t.Fatal(err)
	}
	literal := regexp.MustCompile("['\"`]([a-z][A-Za-z0-9]*(?:\\.[A-Za-z0-9_-]+)+)['\"`]")
	attr := regexp.MustCompile(`data-msg="([^"]+)"`)
	head := regexp.MustCompile("msg\\(`([a-z][A-Za-z0-9]*\\.[A-Za-z0-9_.-]*)\\$\\{")
	keys, heads = map[string][]string{}, map[string][]string{}
	for _, f := range files {
		if !strings.HasSuffix(f, ".js") && !strings.HasSuffix(f, ".html") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		for _, m := range literal.FindAllStringSubmatch(src, -1) {
			if first, _, _ := strings.Cut(m[1], "."); prefixes[first] && !strings.HasSuffix(m[1], ".js") {
				keys[m[1]] = append(keys[m[1]], filepath.Base(f))
			}
		}
		for _, m := range attr.FindAllStringSubmatch(src, -1) {
			keys[m[1]] = append(keys[m[1]], filepath.Base(f))
		}
		for _, m := range head.FindAllStringSubmatch(src, -1) {
			heads[m[1]] = append(heads[m[1]], filepath.Base(f))
		}
	}
	return keys, heads
}

func catalogue(t *testing.T, code string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "lang", code+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Messages map[string]string `json:"messages"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c.Messages
}

// TestWebKeysExist: every key the page's sources name is in the English
// catalogue (a typo would show the key itself), every key built in a
// template has texts under its head, and the Norwegian catalogue has every
// text the web shows (web.* and err.* included), so that nothing on a
// Norwegian page falls back to English unnoticed: a text deliberately the
// same in both languages is still listed in nb.json.
func TestWebKeysExist(t *testing.T) {
	en, nb := catalogue(t, "en"), catalogue(t, "nb")
	prefixes := map[string]bool{}
	for k := range en {
		if first, _, dotted := strings.Cut(k, "."); dotted {
			prefixes[first] = true
		}
	}
	keys, heads := webKeys(t, prefixes)
	if len(keys) < 300 {
		t.Fatalf("found only %d keys in server/web: the scan is broken", len(keys))
	}
	var missing, untranslated []string
	for k, where := range keys {
		if _, ok := en[k]; !ok {
			missing = append(missing, k+" ("+strings.Join(where, ", ")+")")
		}
		if _, ok := nb[k]; !ok {
			untranslated = append(untranslated, k)
		}
	}
	for h, where := range heads {
		found := false
		for k := range en {
			if strings.HasPrefix(k, h) {
				found = true
				if _, ok := nb[k]; !ok {
					untranslated = append(untranslated, k)
				}
			}
		}
		if !found {
			missing = append(missing, h+"* ("+strings.Join(where, ", ")+")")
		}
	}
	for k := range en {
		if strings.HasPrefix(k, "web.") || strings.HasPrefix(k, "err.") {
			if _, ok := nb[k]; !ok {
				untranslated = append(untranslated, k)
			}
		}
	}
	sort.Strings(missing)
	sort.Strings(untranslated)
	if len(missing) > 0 {
		t.Errorf("keys named in server/web but not in lang/en.json:\n%s", strings.Join(missing, "\n"))
	}
	if len(untranslated) > 0 {
		t.Errorf("web texts lang/nb.json lacks:\n%s", strings.Join(untranslated, "\n"))
	}
}
