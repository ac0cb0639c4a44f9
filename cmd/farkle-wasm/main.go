//go:build js && wasm

// Command farkle-wasm is the game's engine for the web page's local games,
// compiled to WebAssembly (GOOS=js GOARCH=wasm; `go generate ./server`
// builds it into server/web/farkle.wasm.gz with internal/wasmbuild). It is
// a thin glue over package localplay: it puts one object on the page,
// globalThis.farkleEngine, whose functions take and return JSON strings,
// and keeps the page's games by number.
//
//	levels()                      → [{"name","description"}]: the bot levels of local games
//	presets()                     → ["classic", ...]: the preset rule sets
//	newGame(setupJSON, lang)      → {"id":N} or {"error":"..."}      (localplay.Setup)
//	resume(recordJSON, seed, lang)→ {"id":N} or {"error":"..."}
//	welcome(id, you)              → the welcome message for the page acting for seat you
//	act(id, seat, actionMsgJSON)  → an update or an error message
//	botToAct(id)                  → true when a bot is to act
//	botAct(id)                    → the bot's update, or an error message
//	toAct(id)                     → the seat to act, -1 once over
//	hint(id, seat)                → a hint or an error message
//	record(id)                    → the record so far (farkle-record/2)
//	setEnded(id, when)            → notes the end time (RFC 3339) in the record
//	close(id)                     → forgets the game
//
// A panic in the engine is recovered and answered {"error":"..."}, so the
// module keeps serving the page.
package main

import (
	"encoding/json"
	"fmt"
	"syscall/js"

	"github.com/farkle/farkle/localplay"
	"github.com/farkle/farkle/rules"
)

var (
	games = map[int]*localplay.Game{}
	next  = 1
)

func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf(`{"error":%q}`, err.Error())
	}
	return string(b)
}

func fail(err error) string { return jsonOf(map[string]string{"error": err.Error()}) }

// fn wraps f as a JavaScript function that recovers from a panic.
func fn(f func(args []js.Value) any) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
		defer func() {
			if r := recover(); r != nil {
				out = jsonOf(map[string]string{"error": fmt.Sprint("farkle-wasm: ", r)})
			}
		}()
		return f(args)
	})
}

// game returns the game numbered by args[0].
func game(args []js.Value) (*localplay.Game, error) {
	if len(args) == 0 || args[0].Type() != js.TypeNumber {
		return nil, fmt.Errorf("farkle-wasm: no game number")
	}
	g := games[args[0].Int()]
	if g == nil {
		return nil, fmt.Errorf("farkle-wasm: no game %d", args[0].Int())
	}
	return g, nil
}

// with calls f with the game of args[0], answering an error as JSON.
func with(f func(g *localplay.Game, args []js.Value) any) func([]js.Value) any {
	return func(args []js.Value) any {
		g, err := game(args)
		if err != nil {
			return fail(err)
		}
		return f(g, args[1:])
	}
}

func keep(g *localplay.Game, err error) string {
	if err != nil {
		return fail(err)
	}
	id := next
	next++
	games[id] = g
	return jsonOf(map[string]int{"id": id})
}

// message answers an update (or hint) or its refusal.
func message[T any](m *T, refusal *localplay.ErrorMsg) string {
	if refusal != nil {
		return jsonOf(refusal)
	}
	return jsonOf(m)
}

func arg(args []js.Value, i int) js.Value {
	if i < len(args) {
		return args[i]
	}
	return js.Undefined()
}

func str(v js.Value) string {
	if v.Type() != js.TypeString {
		return ""
	}
	return v.String()
}

func num(v js.Value) int {
	if v.Type() != js.TypeNumber {
		return -1
	}
	return v.Int()
}

func main() {
	api := map[string]func([]js.Value) any{
		"levels": func([]js.Value) any {
			type level struct {
				Name        string `json:"name"`
				Description string `json:"description"`
			}
			var out []level
			for _, l := range localplay.Levels() {
				out = append(out, level{l.Name, l.Description})
			}
			return jsonOf(out)
		},
		"presets": func([]js.Value) any { return jsonOf(rules.Presets()) },
		"newGame": func(args []js.Value) any {
			var s localplay.Setup
			if err := json.Unmarshal([]byte(str(arg(args, 0))), &s); err != nil {
				return fail(fmt.Errorf("farkle-wasm: setup: %w", err))
			}
			return keep(localplay.New(s, str(arg(args, 1))))
		},
		"resume": func(args []js.Value) any {
			return keep(localplay.Resume([]byte(str(arg(args, 0))), str(arg(args, 1)), str(arg(args, 2))))
		},
		"welcome": with(func(g *localplay.Game, args []js.Value) any { return jsonOf(g.Welcome(num(arg(args, 0)))) }),
		"act": with(func(g *localplay.Game, args []js.Value) any {
			return message(g.Act(num(arg(args, 0)), []byte(str(arg(args, 1)))))
		}),
		"botToAct": with(func(g *localplay.Game, _ []js.Value) any { return g.BotToAct() }),
		"botAct":   with(func(g *localplay.Game, _ []js.Value) any { return message(g.BotAct()) }),
		"toAct":    with(func(g *localplay.Game, _ []js.Value) any { return g.ToAct() }),
		"hint":     with(func(g *localplay.Game, args []js.Value) any { return message(g.Hint(num(arg(args, 0)))) }),
		"record":   with(func(g *localplay.Game, _ []js.Value) any { return string(g.Record()) }),
		"setEnded": with(func(g *localplay.Game, args []js.Value) any { g.SetEnded(str(arg(args, 0))); return true }),
		"close": func(args []js.Value) any {
			if len(args) > 0 && args[0].Type() == js.TypeNumber {
				delete(games, args[0].Int())
			}
			return true
		},
	}
	obj := js.Global().Get("Object").New()
	for name, f := range api {
		obj.Set(name, fn(f))
	}
	js.Global().Set("farkleEngine", obj)
	if cb := js.Global().Get("farkleEngineReady"); cb.Type() == js.TypeFunction {
		cb.Invoke()
	}
	select {}
}
