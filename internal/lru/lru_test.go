package lru

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestCacheDropsTheLeastRecentlyUsed(t *testing.T) {
	c := New[string, int](10)
	for _, k := range []string{"a", "b", "c"} {
		if n := c.Add(k, len(k), 3); n != 0 {
			t.Fatalf("%d dropped adding %s within the bound", n, k)
		}
	}
	if v, ok := c.Get("a"); !ok || v != 1 { // a is now the most recent
		t.Fatalf("a: %v %v", v, ok)
	}
	if n := c.Add("d", 4, 3); n != 1 || c.Size() != 9 || c.Len() != 3 {
		t.Fatalf("adding d dropped %d, size %d, %d kept", n, c.Size(), c.Len())
	}
	if _, ok := c.Get("b"); ok {
		t.Error("b, the least recently used, was kept")
	}
	for _, k := range []string{"a", "c", "d"} {
		if _, ok := c.Get(k); !ok {
			t.Errorf("%s was dropped", k)
		}
	}
	// Replacing a value counts its new size only.
	c.Add("a", 10, 5)
	if v, _ := c.Get("a"); v != 10 || c.Size() != 8 || c.Len() != 2 {
		t.Errorf("after replacing a: %d, size %d, %d kept", v, c.Size(), c.Len())
	}
	// Too large alone: not kept, and the old value of its key is gone.
	if n := c.Add("a", 11, 11); n != 0 || c.Len() != 1 || c.Size() != 3 {
		t.Errorf("a value over the bound: dropped %d, %d kept, size %d", n, c.Len(), c.Size())
	}
	if _, ok := c.Get("a"); ok {
		t.Error("a value over the bound was kept")
	}
	c.Remove("d")
	c.Remove("nothing")
	if c.Len() != 0 || c.Size() != 0 {
		t.Errorf("after removing all: %d kept, size %d", c.Len(), c.Size())
	}
}

func TestCacheWithoutBound(t *testing.T) {
	c := New[int, int](0)
	for i := range 1000 {
		if c.Add(i, i, 1<<40) != 0 {
			t.Fatal("an unbounded cache dropped a value")
		}
	}
	if c.Len() != 1000 {
		t.Errorf("%d kept", c.Len())
	}
}

// TestCacheAgreesWithAModel: random operations on a cache and on a plain
// list ordered by use, which keeps the most recent values whose sizes fit.
func TestCacheAgreesWithAModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 50 {
		max := int64(1 + rng.IntN(40))
		c := New[int, string](max)
		type kv struct {
			k    int
			v    string
			size int64
		}
		var model []kv // the most recently used first
		find := func(k int) int { return slices.IndexFunc(model, func(e kv) bool { return e.k == k }) }
		for op := range 300 {
			k := rng.IntN(12)
			switch rng.IntN(3) {
			case 0:
				v, size := fmt.Sprint(round, op), int64(rng.IntN(int(max)+5))
				c.Add(k, v, size)
				if i := find(k); i >= 0 {
					model = slices.Delete(model, i, i+1)
				}
				if size <= max {
					model = append([]kv{{k, v, size}}, model...)
					var total int64
					for i, e := range model {
						if total += e.size; total > max {
							model = model[:i]
							break
						}
					}
				}
			case 1:
				v, ok := c.Get(k)
				i := find(k)
				if ok != (i >= 0) || ok && v != model[i].v {
					t.Fatalf("round %d op %d: Get(%d) = %q %v, the model %d", round, op, k, v, ok, i)
				}
				if i >= 0 {
					e := model[i]
					model = append([]kv{e}, slices.Delete(model, i, i+1)...)
				}
			default:
				c.Remove(k)
				if i := find(k); i >= 0 {
					model = slices.Delete(model, i, i+1)
				}
			}
			var total int64
			for _, e := range model {
				total += e.size
			}
			if c.Len() != len(model) || c.Size() != total {
				t.Fatalf("round %d op %d: %d kept of size %d, the model %d of %d", round, op, c.Len(), c.Size(), len(model), total)
			}
			k, v, ok := c.Oldest()
			if ok != (len(model) > 0) || ok && (k != model[len(model)-1].k || v != model[len(model)-1].v) {
				t.Fatalf("round %d op %d: Oldest() = %d %q %v, the model's least recent of %d", round, op, k, v, ok, len(model))
			}
		}
	}
}
