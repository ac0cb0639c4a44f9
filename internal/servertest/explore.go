package servertest

import (
	"testing"

	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/solved"
)

// ExploreRules is classic without its penalty, to 2,000: its duel table
// solves in well under a second.
func ExploreRules() rules.Rules {
	r := rules.MustPreset("classic")
	r.Name = "small"
	r.Game.Target = 2000
	r.Turn.FarklePenalty = rules.Penalty{}
	return r
}

// StartExplorer starts a server whose explorer solves through a limited
// Tables, as farkle serve's does.
func StartExplorer(t testing.TB, lim solved.Limits) *Server {
	t.Helper()
	lim.NoWait = true
	ts := solved.NewLimitedTables("", lim)
	t.Cleanup(ts.Close)
	return StartFile(t, "", server.Options{Explorer: server.NewExplorer(ts)})
}
