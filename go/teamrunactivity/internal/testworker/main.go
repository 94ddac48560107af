// Command testworker is a real Go worker (go.temporal.io/sdk) for the teamrun repository's
// test/integration/activity-go.test.ts. Args: <address> <task queue> <identity> <marker dir>.
// Its activities leave marker files (<dir>/<key>-<attempt>.<what>) for the test to read. Prints
// "go worker ready" once it polls; SIGTERM stops it.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"

	"teamrunactivity"
	"teamrunactivity/tracing"
)

func mark(dir string, task *teamrunactivity.Task, what string, body any) {
	data, _ := json.Marshal(body)
	path := filepath.Join(dir, fmt.Sprintf("%s-%d.%s", task.TaskKey, task.Attempt, what))
	_ = os.WriteFile(path+".tmp", data, 0o644)
	_ = os.Rename(path+".tmp", path)
}

func main() {
	address, queue, identity, dir := os.Args[1], os.Args[2], os.Args[3], os.Args[4]
	// With OTEL_EXPORTER_OTLP_ENDPOINT set (test/integration/tracing.test.ts), activities join the run's trace.
	interceptors, shutdownTracing, err := tracing.Interceptor(context.Background(), "")
	if err != nil {
		fmt.Fprintln(os.Stderr, "tracing:", err)
		os.Exit(1)
	}
	defer func() { _ = shutdownTracing(context.Background()) }()
	c, err := client.Dial(client.Options{
		HostPort:     address,
		Identity:     identity,
		Interceptors: interceptors,
		Logger:       log.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil))),
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "connect:", err)
		os.Exit(1)
	}
	defer c.Close()

	research := func(ctx context.Context, task *teamrunactivity.Task) (any, error) {
		var in struct {
			Topic string `json:"topic"`
		}
		if err := task.DecodeInput(&in); err != nil {
			return nil, err
		}
		task.ReportUsage(teamrunactivity.Usage{InputTokens: 700, OutputTokens: 100, Model: "go-model", CostUSD: teamrunactivity.USD(0.0021)})
		return map[string]any{"summary": "go notes on " + in.Topic, "fencingToken": task.FencingToken, "leaseId": task.LeaseID}, nil
	}
	waitForCancel := func(ctx context.Context, task *teamrunactivity.Task) (any, error) {
		mark(dir, task, "started", map[string]any{"pid": os.Getpid(), "fencingToken": task.FencingToken})
		<-ctx.Done()
		mark(dir, task, "cancelled", map[string]any{"fencingToken": task.FencingToken, "error": ctx.Err().Error()})
		return nil, ctx.Err()
	}

	w := worker.New(c, queue, worker.Options{
		// As teamrun's own worker: a heartbeat reaches the server within a second, and so does a cancellation.
		MaxHeartbeatThrottleInterval:       time.Second,
		DefaultHeartbeatThrottleInterval:   time.Second,
		MaxConcurrentActivityExecutionSize: 1,
	})
	w.RegisterActivityWithOptions(teamrunactivity.Wrap(research), activity.RegisterOptions{Name: "go_research"})
	w.RegisterActivityWithOptions(teamrunactivity.Wrap(waitForCancel), activity.RegisterOptions{Name: "go_wait_for_cancel"})
	if err := w.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "start:", err)
		os.Exit(1)
	}
	fmt.Println("go worker ready")
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	<-stop
	w.Stop()
}
