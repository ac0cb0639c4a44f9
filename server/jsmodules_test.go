package server

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// jsImport matches a static or dynamic import of one of the page's own
// modules: import … from './x.js', import './x.js', import('./x.js').
var jsImport = regexp.MustCompile(`(?m)(?:^\s*import\s[^;]*?from\s*|^\s*import\s*|\bimport\(\s*)['"]\./([\w.-]+\.js)['"]`)

// jsModuleGraph returns, for every module of the page, the modules it
// imports.
func jsModuleGraph(t *testing.T) map[string][]string {
	t.Helper()
	graph := map[string][]string{}
	err := fs.WalkDir(webFS, "web", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".js") {
			return err
		}
		data, err := fs.ReadFile(webFS, path)
		if err != nil {
			return err
		}
		name := strings.TrimPrefix(path, "web/")
		graph[name] = []string{}
		for _, m := range jsImport.FindAllStringSubmatch(string(data), -1) {
			graph[name] = append(graph[name], m[1])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return graph
}

// jsCycle returns a circle of imports in graph (its modules in order, the
// first repeated at the end), or nil when there is none.
func jsCycle(graph map[string][]string) []string {
	const (
		unseen = iota
		onPath
		done
	)
	mark := map[string]int{}
	var path []string
	var visit func(string) []string
	visit = func(m string) []string {
		mark[m] = onPath
		path = append(path, m)
		for _, dep := range graph[m] {
			switch mark[dep] {
			case onPath:
				i := slices.Index(path, dep)
				return append(slices.Clone(path[i:]), dep)
			case unseen:
				if c := visit(dep); c != nil {
					return c
				}
			}
		}
		path = path[:len(path)-1]
		mark[m] = done
		return nil
	}
	names := make([]string, 0, len(graph))
	for m := range graph {
		names = append(names, m)
	}
	slices.Sort(names)
	for _, m := range names {
		if mark[m] == unseen {
			if c := visit(m); c != nil {
				return c
			}
		}
	}
	return nil
}

// TestJSModulesHaveNoCircle holds the page's modules to one direction:
// the router (app.js) imports the pages, the pages import what they build
// with (ui.js, i18n.js, …), and nothing imports back. Every import names a
// module that exists.
func TestJSModulesHaveNoCircle(t *testing.T) {
	graph := jsModuleGraph(t)
	if len(graph["app.js"]) < 5 {
		t.Fatalf("app.js imports %v: the import pattern reads too little", graph["app.js"])
	}
	for m, deps := range graph {
		for _, d := range deps {
			if _, ok := graph[d]; !ok {
				t.Errorf("%s imports ./%s, which is not in server/web", m, d)
			}
		}
	}
	if c := jsCycle(graph); c != nil {
		t.Errorf("the page's modules import each other in a circle: %s", strings.Join(c, " → "))
	}
}

// TestJSCycleFinds checks the circle finder on graphs made for it: a test
// of the real modules passing proves nothing unless the finder can fail.
func TestJSCycleFinds(t *testing.T) {
	for _, c := range []struct {
		graph map[string][]string
		want  bool
	}{
		{map[string][]string{"a.js": {"b.js"}, "b.js": {"a.js"}}, true},
		{map[string][]string{"a.js": {"a.js"}}, true},
		{map[string][]string{"a.js": {"b.js", "c.js"}, "b.js": {"c.js"}, "c.js": {"d.js"}, "d.js": {"b.js"}}, true},
		{map[string][]string{"a.js": {"b.js", "c.js"}, "b.js": {"c.js"}, "c.js": {}}, false},
		{map[string][]string{}, false},
	} {
		if got := jsCycle(c.graph); (got != nil) != c.want {
			t.Errorf("jsCycle(%v) = %v, want a circle: %v", c.graph, got, c.want)
		}
	}
	src := "import { h } from './ui.js';\nimport './pwa.js';\nconst m = await import('./late.js');\n// import nothing from here\n"
	var got []string
	for _, m := range jsImport.FindAllStringSubmatch(src, -1) {
		got = append(got, m[1])
	}
	if want := []string{"ui.js", "pwa.js", "late.js"}; !slices.Equal(got, want) {
		t.Errorf("imports read from %q: %v, want %v", src, got, want)
	}
}
