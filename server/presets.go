package server

// What a new table can be: the rule presets (GET /api/presets) and the
// bot levels (GET /api/bots).

import (
	"net/http"
	"strings"

	"github.com/farkle/farkle/bot"
	"github.com/farkle/farkle/rules"
)

func (s *Server) handlePresets(w http.ResponseWriter, r *http.Request) {
	type preset struct {
		Name  string      `json:"name"`
		Rules rules.Rules `json:"rules"`
	}
	var out []preset
	for _, n := range rules.Presets() {
		pr, err := rules.Preset(n)
		if err != nil {
			continue
		}
		out = append(out, preset{n, pr})
	}
	writeJSON(w, http.StatusOK, out)
}

func playablePresets() []string { return rules.Presets() }

func (s *Server) handleBots(w http.ResponseWriter, r *http.Request) {
	type level struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	out := []level{}
	for _, l := range bot.Levels() {
		out = append(out, level{l.Name, l.Description})
	}
	writeJSON(w, http.StatusOK, out)
}

func botName(level string) string {
	if level == "" {
		return "Bot"
	}
	return strings.ToUpper(level[:1]) + level[1:] + " bot"
}
