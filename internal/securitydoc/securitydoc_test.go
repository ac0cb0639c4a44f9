package securitydoc

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func write(t *testing.T, text string) *Doc {
	t.Helper()
	p := filepath.Join(t.TempDir(), "SECURITY.md")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

const good = "# Inventory\n\n## Routes\n\nSome words.\n\n" +
	"| route | bounds | proved by |\n|---|---|---|\n" +
	"| `GET /a` | 10 a second | `server.TestA`, `cmd/farkle.TestB` |\n" +
	"| `POST /b/{id}` | a \\| pipe | **no test (issue 23)** |\n\n" +
	"More words.\n\n| route | proved by |\n|:--|--:|\n| `GET /c` | `abuse.FuzzC` |\n\n" +
	"## Other\n\n| x | y |\n|---|---|\n| not a key | nothing |\n"

// TestTable: the rows of every table of a section, keyed by their first
// cell, up to the next section.
func TestTable(t *testing.T) {
	d := write(t, good)
	rows, err := d.Table("Routes")
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, r := range rows {
		keys = append(keys, r.Key)
	}
	if want := []string{"GET /a", "POST /b/{id}", "GET /c"}; !reflect.DeepEqual(keys, want) {
		t.Fatalf("keys %q, want %q", keys, want)
	}
	if rows[1].Cells[1] != "a | pipe" || rows[1].Line != 10 {
		t.Errorf("row 2: %+v", rows[1])
	}
	cs, err := d.Citations()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, c.String())
	}
	if want := []string{"server.TestA", "cmd/farkle.TestB", "abuse.FuzzC"}; !reflect.DeepEqual(got, want) {
		t.Errorf("citations %q, want %q", got, want)
	}
}

// TestTableRefuses: every way a row could slip past the tests is an error
// naming its line.
func TestTableRefuses(t *testing.T) {
	head := "## Routes\n\n| route | proved by |\n|---|---|\n"
	for name, tc := range map[string]struct{ doc, want string }{
		"no section":      {"## Other\n", `no section "## Routes"`},
		"two sections":    {head + "| `GET /a` | `server.TestA` |\n" + head, "a second section"},
		"no rows":         {"## Routes\n\nnothing yet\n", "no table rows"},
		"key not code":    {head + "| GET /a | `server.TestA` |\n", ":5: the first cell"},
		"key with text":   {head + "| `GET /a` and more | `server.TestA` |\n", ":5: the first cell"},
		"two code spans":  {head + "| `GET /a` `GET /b` | `server.TestA` |\n", ":5: the first cell"},
		"cells":           {head + "| `GET /a` | `server.TestA` | extra |\n", ":5: 3 cells"},
		"repeated":        {head + "| `GET /a` | `server.TestA` |\n| `GET /a` | `server.TestB` |\n", ":6: \"GET /a\" is listed already on line 5"},
		"no test":         {head + "| `GET /a` | TestA |\n", ":5: \"GET /a\" cites no test"},
		"bare test":       {head + "| `GET /a` | `TestA` |\n", ":5: \"GET /a\" cites no test"},
		"no separator":    {"## Routes\n\n| route | proved by |\n| `GET /a` | `server.TestA` |\n", ":3: a table's header"},
		"uppercase pkg":   {head + "| `GET /a` | `Server.TestA` |\n", "cites no test"},
		"test, no marker": {head + "| `GET /a` | no test |\n", "cites no test"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := write(t, tc.doc).Table("Routes")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
	if _, err := write(t, "see `TestA` there\n").Citations(); err == nil || !strings.Contains(err.Error(), ":1: `TestA` names a test without its package") {
		t.Errorf("a bare test name: %v", err)
	}
}

// TestTestFuncs: the tests of each package by its directory, methods and
// other functions left out.
func TestTestFuncs(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"a/a_test.go":              "package a\nfunc TestOne(t *testing.T) {}\nfunc FuzzTwo(f *testing.F) {}\nfunc helper() {}\nfunc (x T) TestMethod() {}\n",
		"a/b/b_test.go":            "package b\nfunc BenchmarkThree(b *testing.B) {}\n",
		"a/b/b.go":                 "package b\nfunc TestNotInATestFile() {}\n",
		"a/testdata/x_test.go":     "package x\nfunc TestHidden(t *testing.T) {}\n",
		".git/hooks/y_test.go":     "package y\nfunc TestHidden(t *testing.T) {}\n",
		"root_test.go":             "package r\nfunc TestRoot(t *testing.T) {}\n",
		"_skipped/skipped_test.go": "package s\nfunc TestHidden(t *testing.T) {}\n",
	}
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := TestFuncs(root)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]bool{
		"a":   {"TestOne": true, "FuzzTwo": true},
		"a/b": {"BenchmarkThree": true},
		".":   {"TestRoot": true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
