package dragon

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/BurntSushi/toml"
)

// ParseRules reads Dragon Farkle rules from TOML: the fields of Rules
// laid over DefaultRules, e.g.
//
//	name = "quick dragon"
//	battle_minimum = 3000
//	round_limit = 15
//	[soldiers.scoring]
//	four_of_a_kind = 2000
//
// Unknown fields are an error naming the field; the result is validated.
// Every error wraps ErrInvalid.
func ParseRules(data []byte) (Rules, error) {
	r := DefaultRules()
	md, err := toml.Decode(string(data), &r)
	if err != nil {
		return Rules{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return Rules{}, fmt.Errorf("%w: unknown field %q", ErrInvalid, und[0].String())
	}
	return finishRules(r)
}

// ParseRulesJSON is ParseRules for JSON (the web API's shape of Rules).
func ParseRulesJSON(data []byte) (Rules, error) {
	r := DefaultRules()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Rules{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if dec.More() {
		return Rules{}, fmt.Errorf("%w: data after the rules object", ErrInvalid)
	}
	return finishRules(r)
}

func finishRules(r Rules) (Rules, error) {
	if r.Name == "" {
		r.Name = "dragon"
	}
	if err := r.Validate(); err != nil {
		return Rules{}, err
	}
	return r, nil
}
