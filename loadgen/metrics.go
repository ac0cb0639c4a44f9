package loadgen

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// maxMetricsBytes bounds the answer of one metrics URL.
const maxMetricsBytes = 8 << 20

// serverStats is what the load tool reads from the servers' metrics,
// summed over them: their CPU (process_cpu_seconds_total) and their group
// commits' transactions and actions (farkle_commit_batches_total,
// farkle_commit_actions_total: absent from a server without them, as an
// older release).
type serverStats struct {
	cpu, batches, committed float64
}

// readStats sums the stats over the metrics URLs.
func readStats(ctx context.Context, urls []string) (serverStats, error) {
	var sum serverStats
	for _, u := range urls {
		v, err := statsOf(ctx, u)
		if err != nil {
			return serverStats{}, err
		}
		sum.cpu += v.cpu
		sum.batches += v.batches
		sum.committed += v.committed
	}
	return sum, nil
}

// statsOf reads one server's stats.
func statsOf(ctx context.Context, u string) (serverStats, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return serverStats{}, err
	}
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return errRedirect }, Timeout: 30 * time.Second}
	resp, err := hc.Do(req)
	if err != nil {
		return serverStats{}, fmt.Errorf("the metrics at %s cannot be read: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return serverStats{}, fmt.Errorf("the metrics at %s answer %s", u, resp.Status)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(io.LimitReader(resp.Body, maxMetricsBytes))
	if err != nil {
		return serverStats{}, fmt.Errorf("the metrics at %s cannot be read: %w", u, err)
	}
	value := func(name string) (float64, bool) {
		f, ok := fams[name]
		if !ok || len(f.GetMetric()) == 0 {
			return 0, false
		}
		return f.GetMetric()[0].GetCounter().GetValue(), true
	}
	var st serverStats
	var ok bool
	if st.cpu, ok = value("process_cpu_seconds_total"); !ok {
		return serverStats{}, fmt.Errorf("the metrics at %s have no process_cpu_seconds_total", u)
	}
	st.batches, _ = value("farkle_commit_batches_total")
	st.committed, _ = value("farkle_commit_actions_total")
	return st, nil
}
