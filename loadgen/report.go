package loadgen

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// Report is what a run measured. Elapsed runs from the start of play
// (every pair's first table set up, or the pair given up) to the run's
// end, and PerSecond is Actions over it.
type Report struct {
	Servers   []string       `json:"servers"`
	Route     string         `json:"route"`   // RouteSpread or RouteTable
	Tables    int            `json:"tables"`  // tables set up
	Games     int            `json:"games"`   // games played to their end
	Players   int            `json:"players"` // guests made
	Actions   int            `json:"actions"` // actions answered
	Elapsed   time.Duration  `json:"elapsed_ns"`
	PerSecond float64        `json:"actions_per_second"`
	P50       time.Duration  `json:"p50_ns"` // the round trips' percentiles
	P90       time.Duration  `json:"p90_ns"`
	P99       time.Duration  `json:"p99_ns"`
	Max       time.Duration  `json:"max_ns"`
	Errors    map[string]int `json:"errors"` // by kind: what failed and how
	// CPUSeconds is the servers' CPU over the run, summed from their
	// metrics (process_cpu_seconds_total), and CPUPerAction that over the
	// actions: zero without metrics URLs.
	CPUSeconds   float64       `json:"cpu_seconds"`
	CPUPerAction time.Duration `json:"cpu_per_action_ns"`
	// ActionsPerCommit is the actions the servers' group commits wrote
	// over their transactions during the run (farkle_commit_*): zero
	// without metrics URLs or where the servers export none.
	ActionsPerCommit float64 `json:"actions_per_commit,omitempty"`
	// With watchers (Config.Watchers): how many watched, the updates
	// delivered to them and measured, the delivery times' percentiles
	// (the action sent to the update read by a watcher), and the updates
	// a watcher never got (absent without watchers, 0 when none was
	// missed).
	Watchers   int           `json:"watchers,omitempty"`
	Deliveries int           `json:"deliveries,omitempty"`
	WatchP50   time.Duration `json:"watch_p50_ns,omitempty"`
	WatchP99   time.Duration `json:"watch_p99_ns,omitempty"`
	WatchMax   time.Duration `json:"watch_max_ns,omitempty"`
	Missed     *int          `json:"missed,omitempty"`
}

// report sums up the run after elapsed.
func (r *run) report(elapsed time.Duration) Report {
	r.mu.Lock()
	defer r.mu.Unlock()
	rep := Report{Tables: r.tables, Games: r.games, Players: r.players, Actions: len(r.lat),
		Elapsed: elapsed, Errors: maps.Clone(r.errs)}
	if elapsed > 0 {
		rep.PerSecond = float64(len(r.lat)) / elapsed.Seconds()
	}
	lat := slices.Clone(r.lat)
	slices.Sort(lat)
	rep.P50, rep.P90, rep.P99 = Percentile(lat, 50), Percentile(lat, 90), Percentile(lat, 99)
	if len(lat) > 0 {
		rep.Max = lat[len(lat)-1]
	}
	if w := r.watch; w != nil {
		w.mu.Lock()
		wl := slices.Clone(w.lat)
		missed := w.missed // a copy: the report is not the watchers' to change
		rep.Watchers, rep.Deliveries, rep.Missed = len(w.conns), w.seen, &missed
		w.mu.Unlock()
		slices.Sort(wl)
		rep.WatchP50, rep.WatchP99 = Percentile(wl, 50), Percentile(wl, 99)
		if len(wl) > 0 {
			rep.WatchMax = wl[len(wl)-1]
		}
	}
	return rep
}

// Percentile is the p-th percentile of the sorted durations by the
// nearest-rank method: the smallest value with at least p% of them at or
// under it (0 of none).
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(p/100*float64(len(sorted)) + 0.999999999)
	rank = max(1, min(rank, len(sorted)))
	return sorted[rank-1]
}

// ErrorText lists the errors by kind, the most frequent first ("none").
func (r Report) ErrorText() string {
	if len(r.Errors) == 0 {
		return "none"
	}
	kinds := slices.Collect(maps.Keys(r.Errors))
	slices.SortFunc(kinds, func(a, b string) int {
		if r.Errors[a] != r.Errors[b] {
			return r.Errors[b] - r.Errors[a]
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%s ×%d", k, r.Errors[k])
	}
	return strings.Join(parts, "; ")
}
