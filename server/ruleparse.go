package server

// Reading the rules of a table request.

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/farkle/farkle/game"
	"github.com/farkle/farkle/rules"
)

// ParseRules reads the rules of a table request: a JSON string naming a
// preset, or an object with the fields of a rule file (validated, with the
// field named in the error; named HouseRules when it has no name). Empty
// means the classic preset. The preset of another kind of game ("dragon",
// game.Preset) is refused here: handleNewTable makes a table of that game
// of it first.
func ParseRules(raw json.RawMessage) (rules.Rules, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return rules.Preset(rules.DefaultBase)
	}
	var name string
	if err := json.Unmarshal(raw, &name); err == nil {
		if v, ok := game.Preset(name); ok {
			return rules.Rules{}, badRequest("rules: %q is not an ordinary rule set: a table request with the rules %q makes a table of %s (presets: %s)", name, name, v.Kind(), strings.Join(playablePresets(), ", "))
		}
		r, err := rules.Preset(name)
		if err != nil {
			return r, badRequest("rules: unknown preset %q (presets: %s)", name, strings.Join(playablePresets(), ", "))
		}
		return r, nil
	}
	r, err := rules.ParseJSON(raw)
	if err != nil {
		var fe *rules.FieldError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &fe):
			return r, err
		case errors.As(err, &te) && te.Field != "":
			return r, &rules.FieldError{Field: te.Field, Msg: fmt.Sprintf("want %s, not a JSON %s", jsonKind(te.Type), te.Value)}
		case errors.As(err, &te):
			return r, badRequest("rules: want a preset name or an object of rule fields, not a JSON %s", te.Value)
		}
		return r, badRequest("rules: %v", err)
	}
	if r.Name == "" {
		r.Name = HouseRules // a rule set is shown by its name everywhere: never blank
	}
	return r, nil
}

// HouseRules is the name of a table's rules sent without one.
const HouseRules = "house rules"

// jsonKind says what JSON value a Go type takes.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	default:
		return "an object"
	}
}
