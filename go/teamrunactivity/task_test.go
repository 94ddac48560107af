package teamrunactivity

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
)

func teamrunInput(t *testing.T, overrides map[string]any) Input {
	t.Helper()
	raw := map[string]any{
		"workflowId":        "nightly-1",
		"taskKey":           "research",
		"attempt":           2,
		"fencingToken":      7,
		"leaseId":           "nightly-1/research/7",
		"holder":            "teammate-1",
		"input":             map[string]any{"topic": "fencing"},
		"dependencyOutputs": map[string]any{"fetch": map[string]any{"pages": 3}},
	}
	for k, v := range overrides {
		raw[k] = v
	}
	data, _ := json.Marshal(raw)
	var in Input
	if err := json.Unmarshal(data, &in); err != nil {
		t.Fatal(err)
	}
	return in
}

func environment() (*testsuite.TestActivityEnvironment, *beats) {
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(log.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	env := suite.NewTestActivityEnvironment()
	b := &beats{}
	env.SetOnActivityHeartbeatListener(func(_ *activity.Info, details converter.EncodedValues) {
		var d HeartbeatDetails
		_ = details.Get(&d)
		b.add(d)
	})
	return env, b
}

type beats struct {
	mu  sync.Mutex
	all []HeartbeatDetails
}

func (b *beats) add(d HeartbeatDetails) { b.mu.Lock(); b.all = append(b.all, d); b.mu.Unlock() }
func (b *beats) count() int             { b.mu.Lock(); defer b.mu.Unlock(); return len(b.all) }

func until(t *testing.T, what string, check func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !check() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestTheTaskArrivesAndTheResultIsTheOutputWithItsUsage(t *testing.T) {
	var seen *Task
	research := Wrap(func(ctx context.Context, task *Task) (any, error) {
		seen = task
		var in struct {
			Topic string `json:"topic"`
		}
		if err := task.DecodeInput(&in); err != nil {
			return nil, err
		}
		task.ReportUsage(Usage{InputTokens: 1000, OutputTokens: 200, Model: "go-model", CostUSD: USD(0.01)})
		task.ReportUsage(Usage{OutputTokens: 50, CostUSD: USD(0.0025)})
		return map[string]string{"summary": "notes on " + in.Topic}, nil
	})
	env, b := environment()
	env.RegisterActivityWithOptions(research, activity.RegisterOptions{Name: "research_agent"})
	value, err := env.ExecuteActivity("research_agent", teamrunInput(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	var result map[string]any
	if err := value.Get(&result); err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(result)
	want := `{"output":{"summary":"notes on fencing"},"usage":{"costUsd":0.0125,"inputTokens":1000,"model":"go-model","outputTokens":250}}`
	if string(got) != want {
		t.Fatalf("result %s, want %s", got, want)
	}
	if seen.FencingToken != 7 || seen.Attempt != 2 || seen.LeaseID != "nightly-1/research/7" || seen.Holder != "teammate-1" || seen.WorkflowID != "nightly-1" {
		t.Fatalf("task %+v", seen.Input)
	}
	if string(seen.DependencyOutputs["fetch"]) != `{"pages":3}` {
		t.Fatalf("dependency outputs %s", seen.DependencyOutputs["fetch"])
	}
	if b.count() == 0 || b.all[0].FencingToken != 7 || b.all[0].WorkerIdentity == "" {
		t.Fatalf("heartbeats %+v: want at least one with fencing token 7 and a worker identity", b.all)
	}
}

func TestInputThatIsNotTeamrunShapeFailsWithoutRetry(t *testing.T) {
	never := Wrap(func(ctx context.Context, task *Task) (any, error) {
		var in struct{ Topic int }
		return nil, task.DecodeInput(&in)
	})
	for name, overrides := range map[string]map[string]any{
		"no fencing token":        {"fencingToken": 0},
		"no lease id":             {"leaseId": ""},
		"input of the wrong type": {"input": map[string]any{"Topic": "text"}},
	} {
		t.Run(name, func(t *testing.T) {
			env, _ := environment()
			env.RegisterActivity(never)
			_, err := env.ExecuteActivity(never, teamrunInput(t, overrides))
			var app *temporal.ApplicationError
			if !errors.As(err, &app) || app.Type() != InvalidInput || !app.NonRetryable() {
				t.Fatalf("error %v: want a non-retryable %s", err, InvalidInput)
			}
		})
	}
}

func TestHeartbeatPaceIsAThirdOfTheHeartbeatTimeout(t *testing.T) {
	if got := HeartbeatInterval(30 * time.Second); got != 10*time.Second {
		t.Fatalf("30s -> %v", got)
	}
	if got := HeartbeatInterval(0); got != 5*time.Second {
		t.Fatalf("no timeout -> %v", got)
	}
}

func TestFailuresKeepTheirTypeAndRetryChoiceAndCarryTheUsageSoFar(t *testing.T) {
	refuses := Wrap(func(ctx context.Context, task *Task) (any, error) {
		task.ReportUsage(Usage{InputTokens: 10, CostUSD: USD(0.001)})
		return nil, temporal.NewNonRetryableApplicationError("the source is gone", "SourceGone", nil)
	})
	env, _ := environment()
	env.RegisterActivity(refuses)
	_, err := env.ExecuteActivity(refuses, teamrunInput(t, nil))
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != "SourceGone" || !app.NonRetryable() {
		t.Fatalf("error %v: want non-retryable SourceGone", err)
	}
	var evidence struct {
		Usage Usage `json:"usage"`
	}
	if err := app.Details(&evidence); err != nil || evidence.Usage.InputTokens != 10 {
		t.Fatalf("details %+v (%v): want the usage reported so far", evidence, err)
	}

	crashes := Wrap(func(ctx context.Context, task *Task) (any, error) { return nil, errors.New("boom") })
	env, _ = environment()
	env.RegisterActivity(crashes)
	_, err = env.ExecuteActivity(crashes, teamrunInput(t, nil))
	if !errors.As(err, &app) || app.NonRetryable() {
		t.Fatalf("error %v: want a retryable application error", err)
	}
}

func TestACancellationIsTheSDKsOwnAndAResultAfterItIsNoSuccess(t *testing.T) {
	background, cancel := context.WithCancel(context.Background())
	var started sync.WaitGroup
	started.Add(1)
	ignores := Wrap(func(ctx context.Context, task *Task) (any, error) {
		started.Done()
		<-ctx.Done()
		return "finished anyway", nil
	})
	env, _ := environment()
	env.SetWorkerOptions(worker.Options{BackgroundActivityContext: background})
	env.RegisterActivity(ignores)
	go func() { started.Wait(); cancel() }()
	_, err := env.ExecuteActivity(ignores, teamrunInput(t, nil))
	// The wrapper returns ctx.Err(), which a real worker reports as the activity's cancellation.
	if err == nil || !strings.Contains(err.Error(), context.Canceled.Error()) {
		t.Fatalf("error %v: want the cancellation (%v), not the result", err, context.Canceled)
	}
}

func TestAWorkerStoppingHandsTheAttemptBack(t *testing.T) {
	background, cancel := context.WithCancel(context.Background())
	stopping := make(chan struct{})
	var started sync.WaitGroup
	started.Add(1)
	waits := Wrap(func(ctx context.Context, task *Task) (any, error) {
		started.Done()
		<-ctx.Done()
		return nil, ctx.Err()
	})
	env, _ := environment()
	env.SetWorkerOptions(worker.Options{BackgroundActivityContext: background})
	env.SetWorkerStopChannel(stopping)
	env.RegisterActivity(waits)
	go func() { started.Wait(); close(stopping); cancel() }()
	_, err := env.ExecuteActivity(waits, teamrunInput(t, nil))
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != WorkerShutdown {
		t.Fatalf("error %v: want %s", err, WorkerShutdown)
	}
}

func TestHeartbeatsContinueWhileTheCodeRuns(t *testing.T) {
	env, b := environment()
	slow := Wrap(func(ctx context.Context, task *Task) (any, error) {
		task.Progress(map[string]int{"step": 1})
		until(t, "a heartbeat", func() bool { return b.count() >= 1 })
		return "done", nil
	})
	env.RegisterActivity(slow)
	if _, err := env.ExecuteActivity(slow, teamrunInput(t, nil)); err != nil {
		t.Fatal(err)
	}
}
