package browsertest

import (
	"flag"
	"os"
)

// KeepShots reports whether the screenshots of page tests are kept to be
// looked at: go test's -artifacts flag (t.ArtifactDir then lies under
// -outputdir) or $DRAGON_SHOTS. Without it a screenshot would be written
// to a temporary directory and removed unseen, and taking it is a good part
// of a page test's CPU (the browser draws and encodes the whole page), so
// the page tests take none.
func KeepShots() bool {
	if os.Getenv("DRAGON_SHOTS") != "" {
		return true
	}
	f := flag.Lookup("test.artifacts")
	return f != nil && f.Value.String() == "true"
}
