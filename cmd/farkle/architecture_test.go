package main

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// architectureOrder reads the package table of the README's Architecture
// section: the module's packages in the order data flows, each allowed to
// import only those above it.
func architectureOrder(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, arch, ok := strings.Cut(string(b), "\n## Architecture\n")
	if !ok {
		t.Fatal("the README has no Architecture section")
	}
	arch, _, _ = strings.Cut(arch, "\n## ")
	var order []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z0-9/]+)` \\|").FindAllStringSubmatch(arch, -1) {
		order = append(order, m[1])
	}
	if len(order) < 10 {
		t.Fatalf("the README's Architecture table lists only %q", order)
	}
	return order
}

// modulePackage is what go list says of one of the module's packages.
type modulePackage struct {
	ImportPath string
	Imports    []string
	Module     *struct{ Path string }
}

// TestArchitecture: every package of the module is in the README's
// Architecture table, and none imports a package listed below it (its
// own imports, not its tests': a test may drive what is above it), so
// the map the README draws is the one the code follows.
func TestArchitecture(t *testing.T) {
	order := architectureOrder(t)
	rank := map[string]int{}
	for i, p := range order {
		if _, dup := rank[p]; dup {
			t.Errorf("the README lists %s twice", p)
		}
		rank[p] = i
	}
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports,Module", "../../...")
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := map[string]bool{}
	for {
		var p modulePackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if p.Module == nil {
			continue
		}
		mod := p.Module.Path + "/"
		name := strings.TrimPrefix(p.ImportPath, mod)
		seen[name] = true
		r, ok := rank[name]
		if !ok {
			t.Errorf("package %s is not in the README's Architecture table: add its row where it belongs in the flow", name)
			continue
		}
		for _, imp := range p.Imports {
			dep, inModule := strings.CutPrefix(imp, mod)
			if !inModule {
				continue
			}
			if d, ok := rank[dep]; ok && d > r {
				t.Errorf("%s imports %s, which the README's Architecture table lists below it: the data would flow back", name, dep)
			}
		}
	}
	for _, p := range order {
		if !seen[p] {
			t.Errorf("the README's Architecture table lists %s, which is not a package of the module", p)
		}
	}
}
