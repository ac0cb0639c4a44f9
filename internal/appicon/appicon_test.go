package appicon_test

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/farkle/farkle/internal/appicon"
	"github.com/farkle/farkle/internal/wasmbuild"
)

// The committed icons are what Draw draws, at their sizes; a maskable
// icon is opaque to its edges (the phone cuts its own shape from it), the
// others have transparent corners.
func TestCommittedIcons(t *testing.T) {
	wd, _ := os.Getwd()
	root, err := wasmbuild.Root(wd)
	if err != nil {
		t.Fatal(err)
	}
	for _, ic := range appicon.Icons {
		have, err := os.ReadFile(filepath.Join(root, appicon.Dir, ic.Name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(have, appicon.PNG(ic)) {
			t.Errorf("%s is not what appicon draws: run go generate ./server", ic.Name)
		}
		img, err := png.Decode(bytes.NewReader(have))
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b != image.Rect(0, 0, ic.Size, ic.Size) {
			t.Errorf("%s is %v, want %d square", ic.Name, b, ic.Size)
		}
		_, _, _, corner := img.At(0, 0).RGBA()
		_, _, _, centre := img.At(ic.Size/2, ic.Size/2).RGBA()
		if centre != 0xffff || (corner == 0xffff) != ic.Maskable {
			t.Errorf("%s: alpha %x at the corner, %x at the centre", ic.Name, corner, centre)
		}
	}
}
