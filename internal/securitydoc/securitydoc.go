// Package securitydoc reads docs/SECURITY.md, the inventory of every way
// into the program, for the tests that hold the code to it: the routes the
// server registers, the WebSocket messages it answers, the SSH requests it
// takes, and the tests the inventory cites.
//
// The inventory's tables are Markdown tables under "## " headings. In the
// sections a test reads, every row's first cell is one code span, the key
// of the row (`POST /api/tables`, `chat`, `session pty-req`), and a row
// cites the tests that prove its bounds as code spans `package.TestName`
// (the package as its directory in the module: `server`, `cmd/farkle`),
// or says "**no test**".
package securitydoc

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// File is the inventory's path in the module.
const File = "docs/SECURITY.md"

// NoTest is the marker of a row no test proves yet.
const NoTest = "**no test"

// Doc is the inventory as read.
type Doc struct {
	path  string
	lines []string
}

// Row is one row of a table of the inventory.
type Row struct {
	Line  int      // its line number in the file, from 1
	Key   string   // the code span of its first cell
	Cells []string // every cell, trimmed, the first one included
}

// Citation is a test the inventory cites.
type Citation struct {
	Line    int
	Package string // the package's directory in the module: "server", "cmd/farkle"
	Name    string // TestX, FuzzX or BenchmarkX
}

func (c Citation) String() string { return c.Package + "." + c.Name }

var (
	codeSpan = regexp.MustCompile("`([^`]+)`")
	cited    = regexp.MustCompile(`^([a-z][a-z0-9_]*(?:/[a-z][a-z0-9_]*)*)\.((?:Test|Fuzz|Benchmark)[A-Za-z0-9_]*)$`)
	bare     = regexp.MustCompile(`^(?:Test|Fuzz|Benchmark)[A-Z0-9_][A-Za-z0-9_]*$`)
)

// Read reads the inventory at path.
func Read(path string) (*Doc, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return &Doc{path: path, lines: strings.Split(string(data), "\n")}, nil
}

// Load reads the inventory of the module that holds the working
// directory (a package's directory while its tests run).
func Load() (*Doc, error) {
	root, err := ModuleRoot()
	if err != nil {
		return nil, err
	}
	return Read(filepath.Join(root, File))
}

// Path returns the file the inventory was read from.
func (d *Doc) Path() string { return d.path }

// ModuleRoot returns the directory of the go.mod above the working
// directory.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("securitydoc: no go.mod above the working directory")
		}
		dir = up
	}
}

// Table returns the rows of every table in the section under the heading
// "## section". It is strict, so that a row cannot hide from the tests:
// the section must be there once, every row must have its table's number
// of cells and a first cell of one code span, a key must not repeat, and
// every row must cite a test or say it has none.
func (d *Doc) Table(section string) ([]Row, error) {
	start := -1
	for i, l := range d.lines {
		if strings.TrimSpace(l) == "## "+section {
			if start >= 0 {
				return nil, fmt.Errorf("%s:%d: a second section %q", d.path, i+1, section)
			}
			start = i + 1
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("%s: no section \"## %s\"", d.path, section)
	}
	var rows []Row
	var errs []error
	seen := map[string]int{}
	header := 0 // the cells of the table's header; 0 outside a table
	for i := start; i < len(d.lines); i++ {
		l := strings.TrimSpace(d.lines[i])
		if strings.HasPrefix(l, "# ") || strings.HasPrefix(l, "## ") {
			break
		}
		if !strings.HasPrefix(l, "|") {
			header = 0
			continue
		}
		cells := splitRow(l)
		switch {
		case header == 0: // a table starts: its header, then its separator
			header = len(cells)
			if i+1 >= len(d.lines) || !isSeparator(d.lines[i+1]) {
				errs = append(errs, fmt.Errorf("%s:%d: a table's header must be followed by its |---| line", d.path, i+1))
			}
			i++
			continue
		case len(cells) != header:
			errs = append(errs, fmt.Errorf("%s:%d: %d cells, but the table's header has %d", d.path, i+1, len(cells), header))
			continue
		}
		key, ok := keyOf(cells[0])
		if !ok {
			errs = append(errs, fmt.Errorf("%s:%d: the first cell %q must be one code span, the row's key", d.path, i+1, cells[0]))
			continue
		}
		if prev, dup := seen[key]; dup {
			errs = append(errs, fmt.Errorf("%s:%d: %q is listed already on line %d", d.path, i+1, key, prev))
			continue
		}
		seen[key] = i + 1
		row := Row{Line: i + 1, Key: key, Cells: cells}
		if len(citationsIn(l)) == 0 && !strings.Contains(l, NoTest) {
			errs = append(errs, fmt.Errorf("%s:%d: %q cites no test (`package.TestName`) and does not say %s (issue N)**", d.path, i+1, key, NoTest))
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("%s: the section %q has no table rows", d.path, section))
	}
	return rows, errors.Join(errs...)
}

// Citations returns every test the inventory cites, and an error for a
// test named without its package.
func (d *Doc) Citations() ([]Citation, error) {
	var out []Citation
	var errs []error
	for i, l := range d.lines {
		for _, c := range citationsIn(l) {
			c.Line = i + 1
			out = append(out, c)
		}
		for _, m := range codeSpan.FindAllStringSubmatch(l, -1) {
			if bare.MatchString(m[1]) {
				errs = append(errs, fmt.Errorf("%s:%d: `%s` names a test without its package: write `package.%s`", d.path, i+1, m[1], m[1]))
			}
		}
	}
	return out, errors.Join(errs...)
}

// citationsIn returns the tests cited on one line.
func citationsIn(line string) []Citation {
	var out []Citation
	for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
		if c := cited.FindStringSubmatch(m[1]); c != nil {
			out = append(out, Citation{Package: c[1], Name: c[2]})
		}
	}
	return out
}

// splitRow returns the cells of a table row, trimmed; `\|` is a pipe
// within a cell.
func splitRow(l string) []string {
	l = strings.TrimSuffix(strings.TrimPrefix(l, "|"), "|")
	var cells []string
	var cell strings.Builder
	for i := 0; i < len(l); i++ {
		switch {
		case l[i] == '\\' && i+1 < len(l) && l[i+1] == '|':
			cell.WriteByte('|')
			i++
		case l[i] == '|':
			cells = append(cells, strings.TrimSpace(cell.String()))
			cell.Reset()
		default:
			cell.WriteByte(l[i])
		}
	}
	return append(cells, strings.TrimSpace(cell.String()))
}

// isSeparator reports whether l is a table's |---|---| line.
func isSeparator(l string) bool {
	l = strings.TrimSpace(l)
	return strings.HasPrefix(l, "|") && strings.Trim(l, "|-: ") == ""
}

// keyOf returns the content of a cell that is exactly one code span.
func keyOf(cell string) (string, bool) {
	if len(cell) < 3 || cell[0] != '`' || cell[len(cell)-1] != '`' {
		return "", false
	}
	key := cell[1 : len(cell)-1]
	if strings.Contains(key, "`") || strings.TrimSpace(key) != key {
		return "", false
	}
	return key, true
}

// TestFuncs returns the test, fuzz and benchmark functions of every
// package under root, by the package's directory relative to root ("."
// for root itself), read from its _test.go files. Directories starting
// with "." or "_", and testdata, are skipped, as the go tool skips them.
func TestFuncs(root string) (map[string]map[string]bool, error) {
	out := map[string]map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		dir = filepath.ToSlash(dir)
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil {
				continue
			}
			if n := fn.Name.Name; strings.HasPrefix(n, "Test") || strings.HasPrefix(n, "Fuzz") || strings.HasPrefix(n, "Benchmark") {
				if out[dir] == nil {
					out[dir] = map[string]bool{}
				}
				out[dir][n] = true
			}
		}
		return nil
	})
	return out, err
}
