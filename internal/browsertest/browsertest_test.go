package browsertest

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"

	"github.com/chromedp/cdproto"
)

// Click tries again only on the browser's answer about a node that left
// the page, wrapped or not; a timeout or another protocol error ends it.
func TestReplaced(t *testing.T) {
	gone := &cdproto.Error{Code: -32000, Message: "Could not find node with given id"}
	for _, c := range []struct {
		err  error
		want bool
	}{
		{gone, true},
		{errGone, true},
		{fmt.Errorf("click #throw: %w", errGone), true},
		{fmt.Errorf("click #throw: %w", gone), true},
		{&cdproto.Error{Code: -32602, Message: "Invalid parameters"}, false},
		{context.DeadlineExceeded, false},
		{errors.New("Could not find node with given id (-32000)"), false},
		{nil, false},
	} {
		if got := replaced(c.err); got != c.want {
			t.Errorf("replaced(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

// named is a test of another name, whose cleanups run at end.
type named struct {
	testing.TB
	name     string
	cleanups []func()
}

func (n *named) Name() string     { return n.name }
func (n *named) Cleanup(f func()) { n.cleanups = append(n.cleanups, f) }
func (n *named) end() {
	for i := len(n.cleanups) - 1; i >= 0; i-- {
		n.cleanups[i]()
	}
}

// TestPlaceBounds: MaxTests top-level tests get a place at once, however
// many browsers each opens (a subtest shares its test's place); the next
// test waits until one of them ends.
func TestPlaceBounds(t *testing.T) {
	if MaxTests != 2 {
		t.Fatalf("MaxTests = %d: the test below holds two places", MaxTests)
	}
	a, b := &named{TB: t, name: "TestA"}, &named{TB: t, name: "TestB"}
	a2, sub := &named{TB: t, name: "TestA"}, &named{TB: t, name: "TestA/sub"}
	for _, n := range []*named{a, b, a2, sub} {
		place(n) // returns at once: two tests, four browsers
	}
	c := &named{TB: t, name: "TestC"}
	got := make(chan struct{})
	go func() {
		place(c)
		close(got)
	}()
	for { // until c waits for its place
		select {
		case <-got:
			t.Fatal("a third test got a place while two held theirs")
		default:
		}
		openMu.Lock()
		w := waiting
		openMu.Unlock()
		if w == 1 {
			break
		}
		runtime.Gosched()
	}
	for _, n := range []*named{a, a2, sub} {
		select {
		case <-got:
			t.Fatal("a third test got a place while two held theirs")
		default:
		}
		n.end() // TestA holds its place until its last browser is gone
	}
	<-got
	b.end()
	c.end()
	openMu.Lock()
	defer openMu.Unlock()
	if len(open) != 0 || waiting != 0 {
		t.Fatalf("after every test ended: open %v, waiting %d", open, waiting)
	}
}
