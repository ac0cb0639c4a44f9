// Command gen draws the app's icons into server/web/icons (see package
// appicon): `go generate ./server` runs it.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/farkle/farkle/internal/appicon"
	"github.com/farkle/farkle/internal/wasmbuild"
)

func main() {
	wd, err := os.Getwd()
	if err == nil {
		var root string
		if root, err = wasmbuild.Root(wd); err == nil {
			for _, ic := range appicon.Icons {
				if err = os.WriteFile(filepath.Join(root, appicon.Dir, ic.Name), appicon.PNG(ic), 0o644); err != nil {
					break
				}
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
