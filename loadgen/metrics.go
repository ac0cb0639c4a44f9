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

// readCPU sums process_cpu_seconds_total over the metrics URLs.
func readCPU(ctx context.Context, urls []string) (float64, error) {
	var sum float64
	for _, u := range urls {
		v, err := cpuOf(ctx, u)
		if err != nil {
			return 0, err
		}
		sum += v
	}
	return sum, nil
}

// cpuOf reads one server's process_cpu_seconds_total.
func cpuOf(ctx context.Context, u string) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return errRedirect }, Timeout: 30 * time.Second}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, fmt.Errorf("the metrics at %s cannot be read: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("the metrics at %s answer %s", u, resp.Status)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(io.LimitReader(resp.Body, maxMetricsBytes))
	if err != nil {
		return 0, fmt.Errorf("the metrics at %s cannot be read: %w", u, err)
	}
	f, ok := fams["process_cpu_seconds_total"]
	if !ok || len(f.GetMetric()) == 0 {
		return 0, fmt.Errorf("the metrics at %s have no process_cpu_seconds_total", u)
	}
	return f.GetMetric()[0].GetCounter().GetValue(), nil
}
