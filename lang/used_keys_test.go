package lang

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// usedKey finds a string literal that is a catalogue key of the prefixes
// checked here (the Dragon game's texts, its cards, the command line's).
var usedKey = regexp.MustCompile(`"((?:dragon|card|cli|dice)\.[A-Za-z0-9_.-]*)"`)

// TestUsedKeysExist: every key of the dragon., card. and cli. prefixes
// the module's Go source names is in en.json and in nb.json (Norwegian
// covers them all, so none falls back to English), and every such key of
// the catalogues is used. A literal ending in "." begins a key made in
// code (card.<id>.name, cli.act.<word>); those are checked where they
// are made.
func TestUsedKeysExist(t *testing.T) {
	used := map[string]string{}
	var made []string // the beginnings of keys made in code
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") && path != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range usedKey.FindAllStringSubmatch(string(b), -1) {
			k := m[1]
			if strings.HasSuffix(k, ".") {
				made = append(made, k)
				continue
			}
			if strings.HasSuffix(k, ".json") || strings.HasSuffix(k, ".jsonl") || strings.HasSuffix(k, ".toml") {
				continue
			}
			used[k] = path
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(used) < 50 {
		t.Fatalf("only %d keys found in the source: is the pattern right?", len(used))
	}
	en, nb := Get("en"), Get("nb")
	for k, path := range used {
		if _, ok := en.Messages[k]; !ok {
			t.Errorf("%s: key %q is not in en.json", path, k)
		}
		if _, ok := nb.Messages[k]; !ok {
			t.Errorf("%s: key %q is not in nb.json", path, k)
		}
	}
	for k := range en.Messages {
		if !usedKey.MatchString(`"` + k + `"`) {
			continue
		}
		if _, ok := nb.Messages[k]; !ok {
			t.Errorf("nb.json lacks %q", k)
		}
		base := strings.TrimSuffix(strings.TrimSuffix(k, ".one"), ".you") // KEY.one, KEY.you: variants of KEY
		isMade := false
		for _, p := range made {
			isMade = isMade || strings.HasPrefix(base, p)
		}
		_, direct := used[k]
		if _, ok := used[base]; !ok && !direct && !isMade {
			t.Errorf("en.json has %q, which no Go source uses", k)
		}
	}
}
