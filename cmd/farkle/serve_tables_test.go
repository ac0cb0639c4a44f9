package main

import (
	"flag"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/farkle/farkle/server"
)

// optionsFrom parses args with the flags register adds, and returns the
// options they set.
func optionsFrom(register func(*flag.FlagSet) func(*server.Options) error, args ...string) (server.Options, error) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	set := register(fs)
	if err := fs.Parse(args); err != nil {
		return server.Options{}, err
	}
	var opt server.Options
	return opt, set(&opt)
}

func TestTableFlags(t *testing.T) {
	parse := func(args ...string) (server.Options, error) { return optionsFrom(tableFlags, args...) }
	opt, err := parse()
	if err != nil {
		t.Fatal(err)
	}
	want := server.Options{MaxOpenTables: 10, MaxBotTables: 2, MaxTurns: 200, WaitingExpiry: 24 * time.Hour, FinishedTables: 64,
		TurnClock: 90 * time.Second, ClockForfeits: 3}
	if opt.MaxOpenTables != want.MaxOpenTables || opt.MaxBotTables != want.MaxBotTables || opt.MaxTurns != want.MaxTurns ||
		opt.WaitingExpiry != want.WaitingExpiry || opt.FinishedTables != want.FinishedTables || opt.TurnClock != want.TurnClock ||
		opt.ClockForfeits != want.ClockForfeits || opt.MaxTablesTotal != 5000 || opt.MaxBotTablesTotal != 100 || opt.GuestExpiry != 30*24*time.Hour ||
		opt.TableIdle != 10*time.Minute || opt.HistoryTail != 64 {
		t.Fatalf("defaults: %+v", opt)
	}
	// 0 turns a limit off: the server's options say so with a negative value.
	opt, err = parse("--max-open-tables", "0", "--turn-clock", "0", "--waiting-expiry", "0", "--clock-forfeits", "0", "--guest-expiry", "0", "--table-idle", "0")
	if err != nil || opt.MaxOpenTables >= 0 || opt.TurnClock >= 0 || opt.WaitingExpiry >= 0 || opt.ClockForfeits >= 0 || opt.GuestExpiry >= 0 || opt.TableIdle >= 0 {
		t.Fatalf("zeros: %+v, %v", opt, err)
	}
	if opt, err = parse("--table-idle", "1s", "--history-tail", "1024"); err != nil || opt.TableIdle != time.Second || opt.HistoryTail != 1024 {
		t.Fatalf("--table-idle 1s --history-tail 1024: %+v, %v", opt, err)
	}
	for _, c := range []struct{ args []string }{
		{[]string{"--max-bot-tables", "-1"}},
		{[]string{"--max-bot-tables-total", "-1"}},
		{[]string{"--max-turns", "10001"}},
		{[]string{"--turn-clock", "2h"}},
		{[]string{"--waiting-expiry", "-1s"}},
		{[]string{"--guest-expiry", "-1h"}},
		{[]string{"--table-idle", "500ms"}},
		{[]string{"--table-idle", "-1m"}},
		{[]string{"--history-tail", "0"}},
		{[]string{"--history-tail", "1025"}},
	} {
		_, err := parse(c.args...)
		if err == nil || !strings.Contains(err.Error(), c.args[0]) {
			t.Errorf("%v: %v (want an error naming the flag)", c.args, err)
		}
	}
}
