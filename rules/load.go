package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// DefaultBase is the preset a rule file starts from when it names no base.
const DefaultBase = "classic"

// Resolve returns the rules for a preset name or, if spec names an existing
// file (or ends in .toml or .json), the rules loaded from that file.
func Resolve(spec string) (Rules, error) {
	if spec == "" {
		spec = DefaultBase
	}
	if _, ok := presets[spec]; ok {
		return Preset(spec)
	}
	ext := strings.ToLower(filepath.Ext(spec))
	if _, err := os.Stat(spec); err == nil || ext == ".toml" || ext == ".json" {
		return Load(spec)
	}
	return Preset(spec)
}

// MaxFileBytes is the largest rule file (or Dragon Farkle card file) read:
// the longest preset is under 2 KiB, so a megabyte is room for any house
// rules and keeps a file of someone else's from taking the memory.
const MaxFileBytes = 1 << 20

// ReadFile reads a rule or card file of at most MaxFileBytes; a longer
// one is an error naming the file and the bound, read no further.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("rules: %s is longer than %d bytes, the most a rule file may be", path, MaxFileBytes)
	}
	return data, nil
}

// Load reads a rule file: JSON if its name ends in .json, TOML otherwise.
func Load(path string) (Rules, error) {
	data, err := ReadFile(path)
	if err != nil {
		return Rules{}, err
	}
	var r Rules
	if strings.EqualFold(filepath.Ext(path), ".json") {
		r, err = ParseJSON(data)
	} else {
		r, err = ParseTOML(data)
	}
	if err != nil {
		return Rules{}, fmt.Errorf("%s: %w", path, err)
	}
	if r.Name == "" {
		r.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	return r, nil
}

// ParseTOML parses a TOML rule file: the preset named by base (DefaultBase
// if none) with the file's fields laid over it, then validated. Unknown
// fields are an error naming the field.
func ParseTOML(data []byte) (Rules, error) {
	// The keys are checked on a generic decode first: decoding into the
	// struct would match keys case-insensitively ("Target" for "target").
	var generic map[string]any
	if _, err := toml.Decode(string(data), &generic); err != nil {
		return Rules{}, fmt.Errorf("rules: %w", err)
	}
	return parse(generic, func(r *Rules) error {
		md, err := toml.Decode(string(data), r)
		if err != nil {
			return fmt.Errorf("rules: %w", err)
		}
		if und := md.Undecoded(); len(und) > 0 {
			return unknownField(und[0].String())
		}
		return nil
	})
}

// ParseJSON parses a JSON rule set with the same fields as a TOML file.
func ParseJSON(data []byte) (Rules, error) {
	var generic map[string]any
	if err := json.Unmarshal(data, &generic); err != nil {
		return Rules{}, fmt.Errorf("rules: %w", err)
	}
	return parse(generic, func(r *Rules) error {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(r); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) && te.Field != "" && strings.HasPrefix(te.Value, "number") {
				// e.g. 1e7, 1.5 or a number beyond int64: name the field
				return fieldErr(te.Field, "must be a whole number from 0 to %d (got %s)", fieldBound(te.Field), strings.TrimPrefix(te.Value, "number "))
			}
			return fmt.Errorf("rules: %w", err)
		}
		return nil
	})
}

// parse checks the keys and shapes of a generically decoded rule file,
// starts from its base preset, lays the file over it with decode, and
// validates the result.
func parse(generic map[string]any, decode func(*Rules) error) (Rules, error) {
	if err := checkKeys(generic, ""); err != nil {
		return Rules{}, err
	}
	if err := checkShapes(generic); err != nil {
		return Rules{}, err
	}
	base, _ := generic["base"].(string)
	scoring, _ := generic["scoring"].(map[string]any)
	_, hasSingle := scoring["single"]
	r, err := startFrom(base, hasSingle)
	if err != nil {
		return Rules{}, err
	}
	if err := decode(&r); err != nil {
		return Rules{}, err
	}
	return finish(r)
}

func startFrom(base string, replaceSingle bool) (Rules, error) {
	if base == "" {
		base = DefaultBase
	}
	r, err := Preset(base)
	if err != nil {
		return Rules{}, &FieldError{Field: "base", Msg: fmt.Sprintf("unknown preset %q (presets: %s)", base, strings.Join(Presets(), ", "))}
	}
	r.Name = ""
	if replaceSingle {
		r.Scoring.Single = nil // a file's single table replaces the preset's
	}
	return r, nil
}

func finish(r Rules) (Rules, error) {
	if r.Scoring.Single == nil {
		r.Scoring.Single = map[string]int{}
	}
	if err := r.Validate(); err != nil {
		return Rules{}, err
	}
	return r, nil
}

// fieldNames lists the keys a rule file may use, by table.
var fieldNames = map[string][]string{
	"":                    {"name", "base", "dice", "scoring", "turn", "game"},
	"scoring":             {"single", "triple", "kind_mode", "four_of_a_kind", "five_of_a_kind", "six_of_a_kind", "straight", "small_straight_low", "small_straight_high", "three_pairs", "three_pairs_quad", "four_kind_pair", "two_triplets", "six_dice_nothing"},
	"turn":                {"hot_dice", "entry_minimum", "bank_minimum", "farkle_penalty"},
	"game":                {"target", "ending", "min_players", "max_players", "first_player", "tie", "max_turns", "next_first"},
	"turn.farkle_penalty": {"count", "points"},
}

// checkKeys reports the first key of m (a table at path prefix) that a rule
// file may not use.
func checkKeys(m map[string]any, prefix string) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		path := k
		if prefix != "" {
			path = prefix + "." + k
		}
		if !slices.Contains(fieldNames[prefix], k) {
			return unknownField(path)
		}
		if sub, ok := m[k].(map[string]any); ok && fieldNames[path] != nil {
			if err := checkKeys(sub, path); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkShapes reports a triple table that does not list six values: JSON
// would silently zero the missing faces or drop the extra ones.
func checkShapes(m map[string]any) error {
	scoring, _ := m["scoring"].(map[string]any)
	if t, ok := scoring["triple"].([]any); ok && len(t) != 6 {
		return &FieldError{Field: "scoring.triple", Msg: fmt.Sprintf("must list 6 values, for faces 1 to 6 (got %d)", len(t))}
	}
	return nil
}

func unknownField(key string) error {
	table := ""
	if i := strings.LastIndex(key, "."); i >= 0 {
		table = key[:i]
	}
	allowed, ok := fieldNames[table]
	if !ok {
		return &FieldError{Field: key, Msg: "unknown field"}
	}
	allowed = append([]string(nil), allowed...)
	sort.Strings(allowed)
	where := "at the top level"
	if table != "" {
		where = "in [" + table + "]"
	}
	return &FieldError{Field: key, Msg: fmt.Sprintf("unknown field (allowed %s: %s)", where, strings.Join(allowed, ", "))}
}

// TOML renders r as a rule file that ParseTOML reads back to the same rules.
func (r Rules) TOML() []byte {
	var b bytes.Buffer
	if err := toml.NewEncoder(&b).Encode(r); err != nil {
		panic("rules: toml: " + err.Error())
	}
	return b.Bytes()
}
