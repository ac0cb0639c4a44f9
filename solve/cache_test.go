package solve

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestCacheRoundTrip(t *testing.T) {
	tab, r := caseTable(t, "classic 1000")
	var buf bytes.Buffer
	if err := WriteTable(&buf, tab); err != nil {
		t.Fatal(err)
	}
	got, err := ReadTable(bytes.NewReader(buf.Bytes()), r)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.w) != len(tab.w) || got.Sweeps() != tab.Sweeps() || got.Seconds() != tab.Seconds() {
		t.Fatalf("header differs: %d/%d values, %d/%d sweeps", len(got.w), len(tab.w), got.Sweeps(), tab.Sweeps())
	}
	for i := range tab.w {
		if got.w[i] != tab.w[i] {
			t.Fatalf("value %d: %v, want %v", i, got.w[i], tab.w[i])
		}
	}
	// the loaded table answers positions like the solved one
	p := DuelPosition{Me: 300, Them: 500, MyStreak: 1, Total: 250, Dice: 2}
	a, err1 := tab.Value(p)
	b, err2 := got.Value(p)
	if err1 != nil || err2 != nil || a != b {
		t.Errorf("Value after load %v %v, before %v %v", b, err2, a, err1)
	}

	data := buf.Bytes()
	other := r.Clone()
	other.Game.Target = 1100
	for name, tc := range map[string]struct {
		data []byte
	}{
		"truncated":      {data[:len(data)-100]},
		"empty":          {nil},
		"flipped value":  {flip(data, headerSize+8*17+3)},
		"flipped header": {flip(data, 80)},
		"bad magic":      {flip(data, 0)},
		"bad version":    {flip(data, 8)},
		"bad checksum":   {flip(data, len(data)-1)},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := ReadTable(bytes.NewReader(tc.data), r); !errors.Is(err, ErrCache) {
				t.Errorf("err = %v, want ErrCache", err)
			}
		})
	}
	t.Run("other rules", func(t *testing.T) {
		if _, err := ReadTable(bytes.NewReader(data), other); !errors.Is(err, ErrCache) {
			t.Errorf("err = %v, want ErrCache", err)
		}
	})
}

func flip(b []byte, i int) []byte {
	c := bytes.Clone(b)
	c[i] ^= 0x40
	return c
}

// TestCachedRebuilds: a missing file is solved and written, a sound one is
// loaded, a corrupt one is rebuilt (and reported), never trusted.
func TestCachedRebuilds(t *testing.T) {
	r := tinyRules(t, 300, "immediate")
	dir := filepath.Join(t.TempDir(), "farkle")
	t1, loaded, stale, err := Cached(r, dir, DuelOptions{})
	if err != nil || loaded || stale != nil {
		t.Fatalf("first call: loaded %v stale %v err %v", loaded, stale, err)
	}
	t2, loaded, stale, err := Cached(r, dir, DuelOptions{})
	if err != nil || !loaded || stale != nil {
		t.Fatalf("second call: loaded %v stale %v err %v", loaded, stale, err)
	}
	if t1.FirstPlayerWins() != t2.FirstPlayerWins() {
		t.Errorf("loaded %v, solved %v", t2.FirstPlayerWins(), t1.FirstPlayerWins())
	}
	name := CacheFile(dir, r)
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	// corrupt a value so that it still is a probability: only the checksum
	// can tell
	data[headerSize+3] ^= 1
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t3, loaded, stale, err := Cached(r, dir, DuelOptions{})
	if err != nil || loaded || !errors.Is(stale, ErrCache) {
		t.Fatalf("corrupt file: loaded %v stale %v err %v", loaded, stale, err)
	}
	if t3.FirstPlayerWins() != t1.FirstPlayerWins() {
		t.Errorf("rebuilt %v, want %v", t3.FirstPlayerWins(), t1.FirstPlayerWins())
	}
	if _, loaded, stale, err := Cached(r, dir, DuelOptions{}); err != nil || !loaded || stale != nil {
		t.Errorf("after the rebuild: loaded %v stale %v err %v", loaded, stale, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("cache directory holds %d files, want 1 (no temporary files left)", len(entries))
	}
}

// FuzzReadTable: any bytes give a table or an ErrCache error, never a panic
// or a table with values outside [0, 1].
func FuzzReadTable(f *testing.F) {
	r := tinyRules(f, 300, "immediate")
	tab := mustDuel(f, r)
	var buf bytes.Buffer
	if err := WriteTable(&buf, tab); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte("FRKLDUEL"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ReadTable(bytes.NewReader(data), r)
		if err != nil {
			if !errors.Is(err, ErrCache) {
				t.Fatalf("error %v does not wrap ErrCache", err)
			}
			return
		}
		for _, v := range got.w {
			if !(v >= 0 && v <= 1) {
				t.Fatalf("accepted value %v", v)
			}
		}
	})
}
