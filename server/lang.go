package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"github.com/farkle/farkle/lang"
)

// The browser's texts are the catalogues of package lang, the same files
// the terminal and the command line read: GET /static/lang/index.json lists
// the languages (code and name), GET /static/lang/{code}.json is one.
func (s *Server) langRoutes(mux router) {
	mux.HandleFunc("GET /static/lang/{file}", func(w http.ResponseWriter, r *http.Request) {
		code, ok := strings.CutSuffix(r.PathValue("file"), ".json")
		if !ok {
			http.NotFound(w, r)
			return
		}
		var body []byte
		if code == "index" {
			body = langIndex()
		} else if body, ok = lang.JSON(code); !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(body)
	})
}

// langIndex is the list of languages, code to name, made once: the
// catalogues are embedded and never change while the server runs.
var langIndex = sync.OnceValue(func() []byte {
	index := map[string]string{}
	for _, c := range lang.Codes() {
		index[c] = lang.Get(c).Name
	}
	b, _ := json.Marshal(index)
	return b
})
