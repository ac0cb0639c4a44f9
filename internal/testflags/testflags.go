// Package testflags holds the two switches every test of the module shares,
// as flags for one package and as environment variables for all of them:
//
//   - -long (FARKLE_LONG_TESTS=1) runs the longest tests too, the solvers'
//     widest sweeps; CI (.ci/run) sets it.
//   - -update (FARKLE_UPDATE_GOLDEN=1) rewrites every golden file from what
//     the code makes now, the tui's teatest screens included: this package
//     does not define -update but uses the one teatest's golden package
//     defines, so one flag serves both.
//
// A flag on go test's command line goes to every package's test binary, and
// one that does not import this package fails on it: with `go test ./...`
// set the variable (FARKLE_LONG_TESTS=1 go test ./...), with one package
// the flag will do (go test ./solve -long).
package testflags

import (
	"flag"
	"os"
	"strconv"
	"testing"

	// defines -update, which teatest.RequireEqualOutput reads
	_ "github.com/charmbracelet/x/exp/golden"
)

var long = flag.Bool("long", env("FARKLE_LONG_TESTS"), "run the longest tests too (or FARKLE_LONG_TESTS=1)")

func init() {
	if env("FARKLE_UPDATE_GOLDEN") {
		if err := flag.Set("update", "true"); err != nil {
			panic(err) // teatest's golden package defines -update
		}
	}
}

// env reports whether the environment variable name holds a true value
// (1, t, true: strconv.ParseBool).
func env(name string) bool {
	v, err := strconv.ParseBool(os.Getenv(name))
	return err == nil && v
}

// Long reports whether the longest tests run (-long, FARKLE_LONG_TESTS).
func Long() bool { return *long }

// SkipUnlessLong skips t unless the longest tests run; why says what the
// test does that takes long.
func SkipUnlessLong(t testing.TB, why string) {
	t.Helper()
	if !*long {
		t.Skipf("%s: a long test, run with -long (go test ./... with FARKLE_LONG_TESTS=1)", why)
	}
}

// SkipVariantUnlessLong skips variant i of a test that runs the same
// steps in several variants (each language, each screen width, each
// reverse proxy) unless -long: the first variant runs always, the others with -long, which CI
// sets. A page test in Chromium costs seconds of CPU a variant, and two
// cores cannot run them all within go test's default timeout.
func SkipVariantUnlessLong(t testing.TB, i int) {
	t.Helper()
	if i > 0 && !*long {
		t.Skip("another variant (a language, a width, a proxy) of a test whose first ran: run with -long (go test ./... with FARKLE_LONG_TESTS=1)")
	}
}

// Update reports whether golden files are to be rewritten (-update,
// FARKLE_UPDATE_GOLDEN).
func Update() bool {
	return flag.Lookup("update").Value.(flag.Getter).Get().(bool)
}
