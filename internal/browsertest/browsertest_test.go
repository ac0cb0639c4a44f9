package browsertest

import (
	"context"
	"errors"
	"fmt"
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
