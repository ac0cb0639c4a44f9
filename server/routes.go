package server

import "net/http"

// router is what the route tables of the site register on: an
// *http.ServeMux, or the routeMux that also remembers the patterns.
type router interface {
	Handle(pattern string, handler http.Handler)
	HandleFunc(pattern string, handler func(http.ResponseWriter, *http.Request))
}

// routeMux is an http.ServeMux that remembers every pattern registered on
// it, in order. net/http cannot list a ServeMux's patterns; this can, so
// that a test holds the site's routes to the inventory of docs/SECURITY.md
// and no route lands without its bounds written down.
type routeMux struct {
	*http.ServeMux
	patterns []string
}

func newRouteMux() *routeMux { return &routeMux{ServeMux: http.NewServeMux()} }

// Handle registers handler for pattern, as http.ServeMux.Handle does, and
// remembers the pattern.
func (m *routeMux) Handle(pattern string, handler http.Handler) {
	m.ServeMux.Handle(pattern, handler)
	m.patterns = append(m.patterns, pattern)
}

// HandleFunc registers handler for pattern, as http.ServeMux.HandleFunc
// does, and remembers the pattern.
func (m *routeMux) HandleFunc(pattern string, handler func(http.ResponseWriter, *http.Request)) {
	m.ServeMux.HandleFunc(pattern, handler)
	m.patterns = append(m.patterns, pattern)
}

// Patterns returns the patterns registered, in the order they were.
func (m *routeMux) Patterns() []string { return append([]string(nil), m.patterns...) }
