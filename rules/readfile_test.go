package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadFileBounded: a rule file of MaxFileBytes is read whole, one
// byte more is refused naming the file and the bound, and Load refuses it
// too, before parsing anything.
func TestReadFileBounded(t *testing.T) {
	dir := t.TempDir()
	at := filepath.Join(dir, "at.toml")
	body := "base = \"classic\"\n"
	if err := os.WriteFile(at, []byte(body+strings.Repeat("#", MaxFileBytes-len(body))), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFile(at); err != nil || len(data) != MaxFileBytes {
		t.Fatalf("a file of %d bytes: %d bytes read, %v", MaxFileBytes, len(data), err)
	}
	if _, err := Load(at); err != nil {
		t.Fatalf("a rule file at the bound does not load: %v", err)
	}
	over := filepath.Join(dir, "over.toml")
	f, err := os.Create(over)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(10 << 30); err != nil { // sparse: 10 GiB that take no disk
		t.Fatal(err)
	}
	f.Close()
	for _, read := range []func(string) error{
		func(p string) error { _, err := ReadFile(p); return err },
		func(p string) error { _, err := Load(p); return err },
		func(p string) error { _, err := Resolve(p); return err },
	} {
		err := read(over)
		if err == nil || !strings.Contains(err.Error(), over) || !strings.Contains(err.Error(), "1048576 bytes") {
			t.Fatalf("a rule file of 10 GiB: %v", err)
		}
	}
}
