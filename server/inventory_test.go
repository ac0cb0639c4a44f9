package server

import (
	"maps"
	"slices"
	"testing"

	"github.com/farkle/farkle/internal/securitydoc"
)

// holdTo fails for every key the code has that the inventory's section
// does not list, and every one it lists that the code does not have.
func holdTo(t *testing.T, section, what string, code []string) {
	t.Helper()
	doc, err := securitydoc.Load()
	if err != nil {
		t.Fatal(err)
	}
	path := doc.Path()
	rows, err := doc.Table(section)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]securitydoc.Row{}
	for _, row := range rows {
		listed[row.Key] = row
	}
	for _, k := range code {
		if _, ok := listed[k]; !ok {
			t.Errorf("%s %q is not in %s under %q: add its row with its bounds and the test that proves them", what, k, path, "## "+section)
		}
	}
	for _, row := range rows {
		if !slices.Contains(code, row.Key) {
			t.Errorf("%s:%d lists %s %q, which the server does not have", path, row.Line, what, row.Key)
		}
	}
}

// TestInventoryRoutes: every route the server registers is listed in
// docs/SECURITY.md with its bounds, and nothing else is, so that a new
// route cannot land without its bounds written down.
func TestInventoryRoutes(t *testing.T) {
	mux := newRouteMux()
	(&Server{}).routes(mux) // as New registers them; nothing is served
	if len(mux.Patterns()) < 10 {
		t.Fatalf("the router holds only %q", mux.Patterns())
	}
	holdTo(t, "HTTP routes", "the route", mux.Patterns())
}

// TestInventoryMessages: every type of WebSocket message the server
// answers is listed in docs/SECURITY.md, and nothing else is.
func TestInventoryMessages(t *testing.T) {
	holdTo(t, "WebSocket messages", "the message type", slices.Sorted(maps.Keys(clientMessages)))
}

// TestInventoryCitesTests: every test docs/SECURITY.md cites as proof
// exists in the package it names.
func TestInventoryCitesTests(t *testing.T) {
	doc, err := securitydoc.Load()
	if err != nil {
		t.Fatal(err)
	}
	path := doc.Path()
	cites, err := doc.Citations()
	if err != nil {
		t.Error(err)
	}
	root, err := securitydoc.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	tests, err := securitydoc.TestFuncs(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(cites) == 0 {
		t.Fatalf("%s cites no test", path)
	}
	for _, c := range cites {
		if !tests[c.Package][c.Name] {
			t.Errorf("%s:%d cites %s, which is not a test of %s/", path, c.Line, c, c.Package)
		}
	}
}
