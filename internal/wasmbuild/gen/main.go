// Command gen builds the WebAssembly module of the local games and writes
// it under server/web (see package wasmbuild): `go generate ./server` runs
// it. It prints the module's size, raw and gzipped.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/farkle/farkle/internal/wasmbuild"
)

func main() {
	wd, err := os.Getwd()
	if err == nil {
		var root string
		if root, err = wasmbuild.Root(wd); err == nil {
			var raw, gz int
			if raw, gz, err = wasmbuild.Write(context.Background(), "go", root); err == nil {
				fmt.Printf("%s: %d bytes, %d gzipped\n", wasmbuild.ModulePath, raw, gz)
				return
			}
		}
	}
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
