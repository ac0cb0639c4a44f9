package wasmbuild_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/farkle/farkle/internal/wasmbuild"
)

// Budget is the most the module may weigh gzipped, as it goes over the
// network to a phone: 2,000,000 bytes (it was 1,842,407 when set, 6.7 MB
// raw). Most of it is Go's runtime, encoding/json, reflect and fmt; the
// game package's Dragon Farkle variant (with its TOML cards) is the
// largest part of the game's own that a local game does not use.
const Budget = 2_000_000

func root(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	r, err := wasmbuild.Root(wd)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func goCmd(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on the PATH")
	}
	return p
}

// The committed module is what this toolchain builds from the sources
// now, byte for byte, and wasm_exec.js is this toolchain's: a change to
// the engine, the bots or anything else the module holds without `go
// generate ./server` fails here (the served module would play other rules
// than the server).
func TestCommittedModuleIsFresh(t *testing.T) {
	dir := root(t)
	ctx := context.Background()
	built, err := wasmbuild.Build(ctx, goCmd(t), dir)
	if err != nil {
		t.Fatal(err)
	}
	gz, err := os.ReadFile(filepath.Join(dir, wasmbuild.ModulePath))
	if err != nil {
		t.Fatal(err)
	}
	committed, err := wasmbuild.Gunzip(gz)
	if err != nil {
		t.Fatalf("%s: %v", wasmbuild.ModulePath, err)
	}
	if !bytes.Equal(built, committed) {
		t.Errorf("%s is stale: the sources build %d bytes, it holds %d different ones: run go generate ./server", wasmbuild.ModulePath, len(built), len(committed))
	}
	js, err := wasmbuild.WasmExec(ctx, goCmd(t))
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile(filepath.Join(dir, wasmbuild.WasmExecPath))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(js, have) {
		t.Errorf("%s is not this toolchain's wasm_exec.js: run go generate ./server", wasmbuild.WasmExecPath)
	}
}

// The committed module stays within its budget, gzipped.
func TestModuleSizeBudget(t *testing.T) {
	gz, err := os.ReadFile(filepath.Join(root(t), wasmbuild.ModulePath))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := wasmbuild.Gunzip(gz)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the module: %d bytes, %d gzipped (budget %d)", len(raw), len(gz), Budget)
	if len(gz) > Budget {
		t.Errorf("the module is %d bytes gzipped, over its budget of %d", len(gz), Budget)
	}
}
