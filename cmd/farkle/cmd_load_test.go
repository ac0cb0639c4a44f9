package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/farkle/farkle/internal/servertest"
	"github.com/farkle/farkle/loadgen"
	"github.com/farkle/farkle/rules"
	"github.com/farkle/farkle/server"
	"github.com/farkle/farkle/store/postgres"
	"github.com/farkle/farkle/store/postgres/pgtest"
	"github.com/farkle/farkle/store/sqlstore"
)

// farkle load against a real server on a SQLite file, with its metrics:
// the run ends at exactly the actions asked, the round trips are ordered
// as percentiles are, and the server counted at least as many accepted
// actions of players as the tool did (at most one more a table: an action
// in flight when the run ended), with no refusal.
func TestLoadAgainstAServer(t *testing.T) {
	ts := servertest.Start(t, server.Options{ActionRate: -1, PlayerMessageRate: -1})
	metrics := httptest.NewServer(ts.Srv.MetricsHandler())
	defer metrics.Close()
	const actions, tables = 300, 4
	out, errOut, code := runFarkle(t, "", "load", "--json", "--tables", fmt.Sprint(tables), "--actions", fmt.Sprint(actions),
		"--duration", "2m", "--metrics", metrics.URL+"/metrics", ts.URL)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r loadgen.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if strings.Contains(out, `"missed"`) || strings.Contains(out, `"watchers"`) {
		t.Errorf("a report without watchers speaks of them: %s", out)
	}
	if r.Actions != actions {
		t.Errorf("%d actions, want %d", r.Actions, actions)
	}
	if r.Tables < tables || r.Players != 2*tables {
		t.Errorf("%d tables and %d guests, want at least %d and %d", r.Tables, r.Players, tables, 2*tables)
	}
	if len(r.Errors) > 0 {
		t.Errorf("errors: %s", r.ErrorText())
	}
	if !(0 < r.P50 && r.P50 <= r.P90 && r.P90 <= r.P99 && r.P99 <= r.Max) {
		t.Errorf("round trips out of order: p50 %v p90 %v p99 %v max %v", r.P50, r.P90, r.P99, r.Max)
	}
	if r.CPUSeconds <= 0 || r.CPUPerAction <= 0 {
		t.Errorf("no CPU read from the metrics: %v s, %v an action", r.CPUSeconds, r.CPUPerAction)
	}
	if r.ActionsPerCommit < 1 || r.ActionsPerCommit > sqlstore.MaxBatch {
		t.Errorf("%v actions a commit read from the metrics, want 1 to %d", r.ActionsPerCommit, sqlstore.MaxBatch)
	}
	accepted := counter(t, metrics.URL+"/metrics", "farkle_actions_total", map[string]string{"result": "accepted", "source": "player"})
	if accepted < actions || accepted > actions+tables {
		t.Errorf("the server accepted %v actions of players; the tool answered %d", accepted, actions)
	}
	if refused := counter(t, metrics.URL+"/metrics", "farkle_actions_total", map[string]string{"result": "refused", "source": "player"}); refused != 0 {
		t.Errorf("the server refused %v actions", refused)
	}
}

// farkle load --watchers against a real server: every watcher of the
// watched table is counted, every update of every action played reaches
// every one of them (the table's only pair plays, so each action of the
// run is the watched table's), none is missed, and the delivery times are
// ordered as percentiles are.
func TestLoadWatchers(t *testing.T) {
	ts := servertest.Start(t, server.Options{ActionRate: -1, PlayerMessageRate: -1, WSPerAddress: -1})
	const actions, watchers = 120, 40
	out, errOut, code := runFarkle(t, "", "load", "--json", "--tables", "1", "--actions", fmt.Sprint(actions),
		"--target", fmt.Sprint(rules.MaxTarget), "--watchers", fmt.Sprint(watchers), "--duration", "2m", ts.URL)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r loadgen.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(r.Errors) > 0 {
		t.Errorf("errors: %s", r.ErrorText())
	}
	if r.Actions != actions || r.Watchers != watchers {
		t.Fatalf("%d actions and %d watchers, want %d and %d", r.Actions, r.Watchers, actions, watchers)
	}
	if r.Deliveries != actions*watchers || r.Missed == nil || *r.Missed != 0 {
		t.Errorf("%d updates delivered and %v missed, want %d and none (0)", r.Deliveries, r.Missed, actions*watchers)
	}
	if !(0 < r.WatchP50 && r.WatchP50 <= r.WatchP99 && r.WatchP99 <= r.WatchMax) {
		t.Errorf("delivery times out of order: p50 %v p99 %v max %v", r.WatchP50, r.WatchP99, r.WatchMax)
	}
}

// counter reads the value of a counter with the labels from a metrics URL
// (0 when absent).
func counter(t *testing.T, url, name string, labels map[string]string) float64 {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, m := range fams[name].GetMetric() {
		ok := true
		for _, l := range m.GetLabel() {
			if want, named := labels[l.GetName()]; named && want != l.GetValue() {
				ok = false
			}
		}
		if ok {
			sum += m.GetCounter().GetValue()
		}
	}
	return sum
}

// The tool stays on the addresses it was given: a server that redirects
// it elsewhere is not followed, and the run fails saying so.
func TestLoadFollowsNoRedirect(t *testing.T) {
	var elsewhere atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		io.WriteString(w, `{"id":"x","token":"y"}`)
	}))
	defer other.Close()
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer redirect.Close()
	_, errOut, code := runFarkle(t, "", "load", "--tables", "3", "--duration", "10s", redirect.URL)
	if code == 0 {
		t.Errorf("a run against a redirecting server succeeded")
	}
	if !strings.Contains(errOut, "no table could be set up") || !strings.Contains(errOut, "redirects elsewhere") {
		t.Errorf("the failure does not say why: %q", errOut)
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the redirect was followed %d times", n)
	}
}

// Bad input is refused before anything is sent, naming the field and its
// bound (exit status 2).
func TestLoadRefusesBadInput(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "at least one server"},
		{[]string{"--tables", "0", srv.URL}, "tables: 0"},
		{[]string{"--tables", fmt.Sprint(loadgen.MaxTables + 1), srv.URL}, fmt.Sprintf("1 to %d", loadgen.MaxTables)},
		{[]string{"--duration", "0s", srv.URL}, "duration"},
		{[]string{"--duration", "25h", srv.URL}, "duration"},
		{[]string{"--rate", "-1", srv.URL}, "rate"},
		{[]string{"--actions", "-5", srv.URL}, "actions"},
		{[]string{"ftp://example.com"}, "not a server's URL"},
		{[]string{"--metrics", "nonsense", srv.URL}, "not a server's URL"},
		{[]string{"--preset", "nosuch", srv.URL}, "not a preset"},
		{[]string{"--target", "-1", srv.URL}, "target: -1"},
		{[]string{"--watchers", "-1", srv.URL}, "watchers: -1"},
		{[]string{"--route", "sticky", srv.URL}, `route: "sticky" is neither spread nor table`},
		{[]string{"--watchers", fmt.Sprint(loadgen.MaxWatchers + 1), srv.URL}, fmt.Sprintf("0 to %d", loadgen.MaxWatchers)},
		{[]string{"--target", fmt.Sprint(rules.MaxTarget + 1), srv.URL}, fmt.Sprintf("0 (the preset's) to %d", rules.MaxTarget)},
	} {
		_, errOut, code := runFarkle(t, "", append([]string{"load"}, c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("load %q: exit %d, %q; want exit 2 saying %q", c.args, code, errOut, c.want)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("%d requests were sent for refused input", n)
	}
}

// A server that does not answer is said in a sentence naming it, not in
// Go's wrapped dial error, and the run fails (exit 1).
func TestLoadServerDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	_, errOut, code := runFarkle(t, "", "load", "--tables", "2", "--duration", "10s", "http://"+addr)
	if code != 1 || !strings.Contains(errOut, "the server at "+addr+" does not answer") || strings.Contains(errOut, "dial tcp") {
		t.Errorf("exit %d, %q; want exit 1 saying the server at %s does not answer", code, errOut, addr)
	}
}

// farkle load --route table against three nodes on one PostgreSQL: both
// players of every table are at one address (the nodes play again almost
// no action another node took: farkle_followed_actions_total, maxFollowed;
// while the default route, a table's players on two nodes, makes every
// node follow), and every address is used across the tables (each node
// accepted actions of players).
func TestLoadRouteTable(t *testing.T) {
	dsn := pgtest.DSN(t)
	const actions = 600
	var nodes []*servertest.Server
	var urls, metrics []string
	for i := range 3 {
		db, err := postgres.OpenWith(context.Background(), dsn, postgres.Options{Node: fmt.Sprintf("load%d-%x", i, rand.Uint64()), LeaseTTL: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		ts := servertest.StartOn(t, "127.0.0.1:0", db, server.Options{ActionRate: -1, PlayerMessageRate: -1, WSPerAddress: -1, LeaseEvery: 200 * time.Millisecond})
		nodes = append(nodes, ts)
		urls = append(urls, ts.URL)
		metrics = append(metrics, ts.Metrics+"/metrics")
	}
	followed := func() []float64 {
		var f []float64
		for _, m := range metrics {
			f = append(f, counter(t, m, "farkle_followed_actions_total", nil))
		}
		return f
	}
	run := func(route string) loadgen.Report {
		t.Helper()
		r := loadPlayed(t, 24, actions, append([]string{"--route", route, "--metrics", strings.Join(metrics, ",")}, urls...)...)
		if r.Route != route {
			t.Fatalf("--route %s: the report says route %q", route, r.Route)
		}
		return r
	}

	before := make([]float64, len(nodes))
	for i, m := range metrics {
		before[i] = counter(t, m, "farkle_actions_total", map[string]string{"result": "accepted", "source": "player"})
	}
	run(loadgen.RouteTable)
	var all float64
	for i, f := range followed() {
		all += f
		if n := counter(t, metrics[i], "farkle_actions_total", map[string]string{"result": "accepted", "source": "player"}); n <= before[i] {
			t.Errorf("--route table: node %d accepted no action of players", i)
		}
	}
	if all > maxFollowed(actions) {
		t.Errorf("--route table: the nodes followed %v of %d actions that another node took", all, actions)
	}

	run(loadgen.RouteSpread)
	for i, f := range followed() {
		if f == 0 {
			t.Errorf("--route spread: node %d followed no action of another node", i)
		}
	}
}

// Play starts once every pair's first table is set up: a table whose join
// a slow node holds back (here a proxy holds the first join two seconds)
// still gets its actions, where the tables ready first used to take every
// action of a short run (--actions) before it could play, so that a node
// of a cluster could see none (TestLoadRouteTable failed so under load).
func TestLoadWaitsForEveryTable(t *testing.T) {
	late := make(chan string, 1)
	ts, proxy := holdFirstJoin(t, func(_ *http.Request, id string) bool {
		late <- id
		<-time.After(2 * time.Second) // a slow node, not a wait for anything
		return true
	})
	const actions = 40
	began := time.Now()
	r := loadPlayed(t, 4, actions, proxy)
	if wall := time.Since(began); r.Elapsed > wall-2*time.Second {
		t.Errorf("the run's clock (%v of the run's %v) counted the two seconds of setting up", r.Elapsed, wall)
	}
	var id string
	select {
	case id = <-late:
	default:
		t.Fatal("no join went through the proxy")
	}
	resp, err := http.Get(ts.URL + "/api/tables/" + id)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got struct {
		Actions *int `json:"actions"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil || got.Actions == nil {
		t.Fatalf("the table %s: %v, no actions in its JSON", id, err)
	}
	if *got.Actions == 0 {
		t.Errorf("the table whose join was held (%s) played no action of the run's %d", id, actions)
	}
}

// A join that never answers within the run holds play back (every pair
// waits for every first table), and the report says so rather than ending
// with no action and no error.
func TestLoadSaysWhyPlayNeverStarted(t *testing.T) {
	_, proxy := holdFirstJoin(t, func(r *http.Request, _ string) bool {
		<-r.Context().Done() // a node that never answers: the client gives up
		return false
	})
	out, errOut, code := runFarkle(t, "", "load", "--json", "--tables", "3", "--duration", "2s", proxy)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r loadgen.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if r.Actions != 0 || r.Tables != 2 {
		t.Errorf("%d actions at %d tables set up; want none played at the 2 tables ready", r.Actions, r.Tables)
	}
	if n := r.Errors[loadgen.SettingUpAtEnd]; n != 1 {
		t.Errorf("errors %s; want the one pair still setting up named", r.ErrorText())
	}
	if r.Elapsed < time.Second { // the run lasted its 2 s; play, which never began, none
		t.Errorf("elapsed %v: a run whose play never started is timed from its start", r.Elapsed)
	}
}

// holdFirstJoin starts a server and a proxy in front of it, and returns
// both (the proxy's URL): the proxy hands the first join it sees to hold,
// with the table's ID, and forwards it when hold returns true; it forwards
// every other request at once.
func holdFirstJoin(t *testing.T, hold func(r *http.Request, table string) bool) (*servertest.Server, string) {
	t.Helper()
	ts := servertest.Start(t, server.Options{ActionRate: -1, PlayerMessageRate: -1, WSPerAddress: -1})
	target, err := url.Parse(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(target)
	var held atomic.Bool
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, join := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/api/tables/"), "/join")
		if join && r.Method == http.MethodPost && held.CompareAndSwap(false, true) && !hold(r, id) {
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)
	return ts, proxy.URL
}

// loadPlayed runs farkle load --json for tables and exactly actions at the
// highest target with args (the servers' URLs last) and returns its report;
// the test ends unless the run ended well with those actions and no error.
func loadPlayed(t *testing.T, tables, actions int, args ...string) loadgen.Report {
	t.Helper()
	out, errOut, code := runFarkle(t, "", append([]string{"load", "--json", "--tables", fmt.Sprint(tables), "--actions", fmt.Sprint(actions),
		"--target", fmt.Sprint(rules.MaxTarget), "--duration", "2m"}, args...)...)
	if code != 0 {
		t.Fatalf("load %q: exit %d: %s", args, code, errOut)
	}
	var r loadgen.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if r.Actions != actions || len(r.Errors) > 0 {
		t.Fatalf("load %q: %d actions (want %d), errors: %s", args, r.Actions, actions, r.ErrorText())
	}
	return r
}
