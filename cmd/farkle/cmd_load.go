package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/farkle/farkle/loadgen"
	"github.com/farkle/farkle/rules"
)

func init() {
	register(&command{
		name:    "load",
		args:    "[--tables N] [--rate N] [--duration D] [--actions N] [--target N] [--watchers N] [--route spread|table] [--metrics URL,...] [--json] URL [URL...]",
		summary: "put a load of guests playing two-player tables on farkle servers, and measure their round trips and CPU",
		run:     runLoad,
	})
}

const loadHelp = `farkle load makes two guests a table and seats them at two-player tables of
the servers given (several URLs: a cluster's nodes; each table is created on
one node and joined from the next, or with --route table joined and played
on the node its ID chooses, as a load balancer routing by table does), and
plays them: each player acts as soon as its update comes back, or all of
them together at --rate actions a second. Play starts once every pair's
first table is set up. A finished game is followed by a new table. The run
ends after --duration or --actions, whichever comes first. It prints the
actions a second (counted from the start of play), the round trip of an
action (sent to the update that answers it) at p50, p90 and p99, the errors
by kind, and, with --metrics (each server's /metrics, served on its
--metrics-addr), the servers' CPU for each action and the actions a database
transaction carried (their group commits).

It sends only to the URLs given and follows no redirect. A server's limits
for one address and one player refuse a large load from one machine: on a
server you test, turn them off or raise them (farkle serve --rate-address 0
--ws-per-address 0 --ws-rate 0 --ws-player-rate 0 --max-tables-total 0), and
read the refusals in the errors.`

func runLoad(ctx context.Context, e *env, args []string) error {
	c := commands["load"]
	fs := newFlags(e, c)
	setCommandHelp(e, fs, c, para("cli.help.load.details", loadHelp))
	tables := fs.Int("tables", 20, fmt.Sprintf("tables played at once, two guests each (1 to %d)", loadgen.MaxTables))
	rateN := fs.Float64("rate", 0, "actions a second in all (0: as fast as the servers answer)")
	duration := fs.Duration("duration", 10*time.Second, fmt.Sprintf("how long the run lasts (at most %v)", loadgen.MaxDuration))
	actions := fs.Int("actions", 0, "end the run after this many actions (0: only --duration ends it)")
	metrics := fs.String("metrics", "", "the servers' metrics URLs, comma-separated (e.g. http://127.0.0.1:9090/metrics): the CPU an action costs, the actions a commit")
	preset := fs.String("preset", "classic", "the preset of the tables' rules")
	target := fs.Int("target", 0, fmt.Sprintf("the tables' target score instead of the preset's (at most %d; with a server's --max-turns 0, %d makes games that last a whole soak)", rules.MaxTarget, rules.MaxTarget))
	watchers := fs.Int("watchers", 0, fmt.Sprintf("connections watching the first table, its updates' delivery measured (0 to %d)", loadgen.MaxWatchers))
	route := fs.String("route", loadgen.RouteSpread, "how a table's requests are spread over the URLs: spread (its two players on two nodes) or table (both on the node its ID chooses)")
	asJSON := fs.Bool("json", false, `print JSON: {"actions":N,"actions_per_second":X,"p50_ns":…,"p90_ns":…,"p99_ns":…,"errors":{…},"cpu_per_action_ns":…}`)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageMsg("cli.err.loadURL")
	}
	if _, err := rules.Preset(*preset); err != nil {
		return usageMsg("cli.err.notPreset", "value", *preset, "presets", strings.Join(rules.Presets(), ", "))
	}
	cfg := loadgen.Config{Servers: fs.Args(), Tables: *tables, Rate: *rateN, Duration: *duration,
		Actions: *actions, Rules: *preset, Target: *target, Watchers: *watchers, Route: *route}
	if *metrics != "" {
		cfg.Metrics = strings.Split(*metrics, ",")
	}
	if err := cfg.Check(); err != nil {
		return usagef("%v", err)
	}
	var bar *progressbar.ProgressBar
	if e.terminal && !*asJSON {
		total := int64(cfg.Duration / time.Millisecond)
		bar = newBar(e, total, "load", barLine{})
		cfg.Progress = func(n int, el time.Duration) {
			bar.Describe(barText(e, total, fmt.Sprintf("load: %d actions", n), barLine{}))
			_ = bar.Set64(int64(el / time.Millisecond))
		}
	}
	rep, err := loadgen.Run(ctx, cfg)
	if bar != nil {
		_ = bar.Finish()
	}
	if err != nil && rep.Tables == 0 {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return errors.Join(enc.Encode(rep), err)
	}
	return errors.Join(printLoad(e, rep, len(cfg.Metrics)), err)
}

// printLoad writes the report for a person.
func printLoad(e *env, r loadgen.Report, metrics int) error {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }
	w := e.stdout
	fmt.Fprintf(w, "servers      %s (route: %s)\n", strings.Join(r.Servers, " "), r.Route)
	fmt.Fprintf(w, "tables       %d set up, %d games played to the end, %d guests\n", r.Tables, r.Games, r.Players)
	fmt.Fprintf(w, "actions      %d in %.1f s: %.1f a second\n", r.Actions, r.Elapsed.Seconds(), r.PerSecond)
	fmt.Fprintf(w, "round trip   p50 %s · p90 %s · p99 %s · max %s\n", ms(r.P50), ms(r.P90), ms(r.P99), ms(r.Max))
	if r.Watchers > 0 {
		fmt.Fprintf(w, "watchers     %d: %d updates delivered, p50 %s · p99 %s · max %s, %d missed\n",
			r.Watchers, r.Deliveries, ms(r.WatchP50), ms(r.WatchP99), ms(r.WatchMax), *r.Missed)
	}
	fmt.Fprintf(w, "errors       %s\n", r.ErrorText())
	if metrics > 0 {
		if _, err := fmt.Fprintf(w, "server CPU   %.3f ms an action (%.2f s over %d actions, from %d metrics URLs)\n",
			float64(r.CPUPerAction)/float64(time.Millisecond), r.CPUSeconds, r.Actions, metrics); err != nil {
			return err
		}
		if r.ActionsPerCommit > 0 {
			_, err := fmt.Fprintf(w, "commits      %.1f actions a database transaction (the group commit)\n", r.ActionsPerCommit)
			return err
		}
	}
	return nil
}
