package site

import (
	"os"
	"testing"

	"github.com/farkle/farkle/internal/browsertest"
)

// TestMain shares one Chromium among the package's tests, each in a browser
// context of its own (browsertest.Main).
func TestMain(m *testing.M) {
	os.Exit(browsertest.Main(m))
}
