package servertest

import (
	"encoding/json"
	"fmt"
)

// Shape returns a JSON document with every string, number and boolean
// replaced by its kind ("string", "float64", "bool"), keys and nesting
// kept: two answers compare by what they hold, not by its values (an
// answer that must not tell two cases apart).
func Shape(data []byte) (any, error) {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return shapeOf(v), nil
}

func shapeOf(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = shapeOf(e)
		}
		return out
	case []any:
		out := []any{}
		for _, e := range x {
			out = append(out, shapeOf(e))
		}
		return out
	case nil:
		return nil
	}
	return fmt.Sprintf("%T", v)
}
