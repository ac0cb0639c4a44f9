package server

import (
	"sync"
	"testing"
)

// TestKeyedMutex: goroutines changing a counter per key under the key's
// lock lose no change (go test -race checks the exclusion too), holding
// one key does not hold up another, and no key is kept once nobody uses
// it.
func TestKeyedMutex(t *testing.T) {
	var k keyedMutex
	counts := map[string]*int{"a": new(int), "b": new(int), "c": new(int)}
	var wg sync.WaitGroup
	for range 8 {
		for key, n := range counts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 500 {
					unlock := k.lock(key)
					*n++
					unlock()
				}
			}()
		}
	}
	wg.Wait()
	for key, n := range counts {
		if *n != 8*500 {
			t.Errorf("key %s: %d increments, want %d", key, *n, 8*500)
		}
	}
	unlockA := k.lock("a")
	done := make(chan struct{})
	go func() { // "b" while "a" is held
		k.lock("b")()
		close(done)
	}()
	<-done
	unlockA()
	if n := k.size(); n != 0 {
		t.Fatalf("%d keys kept after use", n)
	}
}
