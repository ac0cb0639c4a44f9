// Package wasmbuild builds the WebAssembly module of the web page's local
// games (cmd/farkle-wasm) reproducibly, and writes it where the server
// embeds it: server/web/farkle.wasm.gz, with the Go distribution's
// wasm_exec.js beside it. The module is committed, so that `go run
// ./cmd/farkle serve` on a fresh clone needs no build step; `go generate
// ./server` (which runs ./gen) makes it again, and the package's tests fail
// when the committed files are not what this toolchain builds from the
// sources, or when the module outgrows its budget.
package wasmbuild

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Package is the module's main package.
const Package = "./cmd/farkle-wasm"

// The files written under the module's directory.
const (
	ModulePath   = "server/web/farkle.wasm.gz"
	WasmExecPath = "server/web/wasm_exec.js"
)

// Flags are the go build flags: no paths, no VCS stamp, no build ID and no
// symbol tables, so that the same sources and toolchain give the same bytes.
var Flags = []string{"-trimpath", "-buildvcs=false", "-ldflags=-s -w -buildid="}

// Env is the environment of the build: the process's with the target set
// and every variable that would change the bytes cleared.
func Env() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GOOS", "GOARCH", "GOWASM", "GOFLAGS", "CGO_ENABLED", "GOEXPERIMENT":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
}

// Build compiles the module from the sources of the module rooted at dir
// with the go command goCmd (e.g. "go") and returns its bytes.
func Build(ctx context.Context, goCmd, dir string) ([]byte, error) {
	tmp, err := os.MkdirTemp("", "farkle-wasm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "farkle.wasm")
	cmd := exec.CommandContext(ctx, goCmd, append(append([]string{"build"}, Flags...), "-o", out, Package)...)
	cmd.Dir, cmd.Env = dir, Env()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("wasmbuild: go build: %v: %s", err, stderr.Bytes())
	}
	return os.ReadFile(out)
}

// WasmExec returns the loader of Go's WebAssembly modules from the
// toolchain of goCmd, with a note naming where it comes from and its
// licence (Go's BSD licence, server/web/wasm_exec.LICENSE).
func WasmExec(ctx context.Context, goCmd string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, goCmd, "env", "GOROOT", "GOVERSION")
	cmd.Env = Env()
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("wasmbuild: go env: %v", err)
	}
	lines := strings.Fields(string(out))
	if len(lines) != 2 {
		return nil, fmt.Errorf("wasmbuild: go env GOROOT GOVERSION said %q", out)
	}
	src, err := os.ReadFile(filepath.Join(lines[0], "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return nil, fmt.Errorf("wasmbuild: %w", err)
	}
	note := fmt.Sprintf("// wasm_exec.js of %s, copied unchanged from $GOROOT/lib/wasm by internal/wasmbuild\n"+
		"// (go generate ./server). Go's BSD licence: wasm_exec.LICENSE beside this file.\n", lines[1])
	return append([]byte(note), src...), nil
}

// Gzip compresses b the same way every time: the best compression and a
// header without a name or a time.
func Gzip(b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = zw.Write(b)
	_ = zw.Close()
	return buf.Bytes()
}

// Gunzip decompresses b.
func Gunzip(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// Root returns the directory of the module holding dir (where go.mod is),
// looking up from dir.
func Root(dir string) (string, error) {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", fmt.Errorf("wasmbuild: no go.mod above %s", dir)
		}
		d = up
	}
}

// Write builds the module and writes it, gzipped, and wasm_exec.js under
// the module rooted at dir.
func Write(ctx context.Context, goCmd, dir string) (raw, gz int, err error) {
	wasm, err := Build(ctx, goCmd, dir)
	if err != nil {
		return 0, 0, err
	}
	js, err := WasmExec(ctx, goCmd)
	if err != nil {
		return 0, 0, err
	}
	z := Gzip(wasm)
	if err := os.WriteFile(filepath.Join(dir, ModulePath), z, 0o644); err != nil {
		return 0, 0, err
	}
	if err := os.WriteFile(filepath.Join(dir, WasmExecPath), js, 0o644); err != nil {
		return 0, 0, err
	}
	return len(wasm), len(z), nil
}
