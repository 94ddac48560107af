// Package teamrunactivity writes a Temporal activity (Go SDK) that runs as a task of a teamrun
// team run: the activity teamrun schedules for an `activity` task (docs/activities.md in the
// teamrun repository).
//
//	func Research(ctx context.Context, task *teamrunactivity.Task) (any, error) {
//		var in struct{ Topic string `json:"topic"` }
//		if err := task.DecodeInput(&in); err != nil { return nil, err }
//		task.ReportUsage(teamrunactivity.Usage{InputTokens: 1200, CostUSD: teamrunactivity.USD(0.0042)})
//		return map[string]string{"summary": "notes on " + in.Topic}, nil
//	}
//
//	w.RegisterActivityWithOptions(teamrunactivity.Wrap(Research), activity.RegisterOptions{Name: "research_agent"})
package teamrunactivity

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
)

// Error types teamrun reads.
const (
	// InvalidInput fails the task without retry: the argument is not teamrun's shape.
	InvalidInput = "TeamInvalidActivityInput"
	// NotScheduled fails without retry an activity a client started on its own (a standalone activity): only a
	// workflow, a team run, schedules a task.
	NotScheduled = "TeamActivityNotScheduled"
	// WorkerShutdown hands the attempt back: teamrun leases it again at once.
	WorkerShutdown = "TeamWorkerShutdown"
)

// unleasedHeartbeat is the pace without a heartbeat timeout (heartbeat "optional"): a
// cancellation still reaches an activity only in the response to a heartbeat.
const unleasedHeartbeat = 5 * time.Second

// Usage is what an attempt consumed, in teamrun's usage shape.
type Usage struct {
	InputTokens  float64 `json:"inputTokens,omitempty"`
	OutputTokens float64 `json:"outputTokens,omitempty"`
	CacheTokens  float64 `json:"cacheTokens,omitempty"`
	Model        string  `json:"model,omitempty"`
	// CostUSD: teamrun's workflow has no price table for a foreign activity; without it the usage is unpriced.
	CostUSD *float64 `json:"costUsd,omitempty"`
}

// USD is a helper for Usage.CostUSD.
func USD(v float64) *float64 { return &v }

// Input is the one argument teamrun passes, as JSON.
type Input struct {
	WorkflowID        string                     `json:"workflowId"`
	TaskKey           string                     `json:"taskKey"`
	Attempt           int                        `json:"attempt"`
	FencingToken      int64                      `json:"fencingToken"`
	LeaseID           string                     `json:"leaseId"`
	Holder            string                     `json:"holder"`
	Input             json.RawMessage            `json:"input"`
	DependencyOutputs map[string]json.RawMessage `json:"dependencyOutputs"`
}

// Result is what the wrapped activity returns: teamrun's `{ output, usage }` envelope.
type Result struct {
	Output any   `json:"output"`
	Usage  Usage `json:"usage"`
}

// Task is one attempt of a teamrun task.
type Task struct {
	Input
	// WorkerIdentity is sent with every heartbeat (teamrun records the worker of a lost lease).
	WorkerIdentity string

	mu       sync.Mutex
	usage    Usage
	progress any
	started  time.Time
}

// DecodeInput parses the plan's `executor.input` into v.
func (t *Task) DecodeInput(v any) error {
	raw := t.Input.Input
	if len(raw) == 0 {
		raw = []byte("null")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return temporal.NewNonRetryableApplicationError(fmt.Sprintf("teamrun task input: input does not fit %T: %v", v, err), InvalidInput, err)
	}
	return nil
}

// ReportUsage adds to the usage the attempt reports; teamrun charges it to the run's budget.
func (t *Task) ReportUsage(u Usage) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.usage.InputTokens += u.InputTokens
	t.usage.OutputTokens += u.OutputTokens
	t.usage.CacheTokens += u.CacheTokens
	if u.Model != "" {
		t.usage.Model = u.Model
	}
	if u.CostUSD != nil {
		sum := *u.CostUSD
		if t.usage.CostUSD != nil {
			sum += *t.usage.CostUSD
		}
		t.usage.CostUSD = &sum
	}
}

// Usage is the usage reported so far.
func (t *Task) Usage() Usage {
	t.mu.Lock()
	defer t.mu.Unlock()
	u := t.usage
	if u.CostUSD != nil {
		c := *u.CostUSD
		u.CostUSD = &c
	}
	return u
}

// Progress sets what the next heartbeats carry as `progress`.
func (t *Task) Progress(details any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.progress = details
}

// HeartbeatDetails is what every heartbeat carries.
type HeartbeatDetails struct {
	WorkerIdentity string `json:"workerIdentity"`
	FencingToken   int64  `json:"fencingToken"`
	ElapsedMs      int64  `json:"elapsedMs"`
	Progress       any    `json:"progress"`
}

func (t *Task) heartbeat(ctx context.Context) {
	t.mu.Lock()
	details := HeartbeatDetails{t.WorkerIdentity, t.FencingToken, time.Since(t.started).Milliseconds(), t.progress}
	t.mu.Unlock()
	activity.RecordHeartbeat(ctx, details)
}

// HeartbeatInterval is the heartbeat pace: three per heartbeat timeout (the task's lease), so one
// late heartbeat never loses the lease; 5s without a heartbeat timeout.
func HeartbeatInterval(timeout time.Duration) time.Duration {
	if timeout <= 0 {
		return unleasedHeartbeat
	}
	return max(timeout/3, 50*time.Millisecond)
}

func (in Input) check() error {
	problem := ""
	switch {
	case in.WorkflowID == "":
		problem = "workflowId must be a non-empty string"
	case in.TaskKey == "":
		problem = "taskKey must be a non-empty string"
	case in.Attempt < 1:
		problem = "attempt must be a positive integer"
	case in.FencingToken < 1:
		problem = "fencingToken must be a positive integer"
	case in.LeaseID == "":
		problem = "leaseId must be a non-empty string"
	case in.Holder == "":
		problem = "holder must be a non-empty string"
	}
	if problem == "" {
		return nil
	}
	return temporal.NewNonRetryableApplicationError("teamrun task input: "+problem, InvalidInput, nil)
}

// Func is an activity body: it gets the attempt and returns the task's output.
type Func func(ctx context.Context, task *Task) (any, error)

// Wrap turns fn into the activity teamrun schedules: it heartbeats while fn runs, returns
// `{ output, usage }`, returns the SDK's cancellation when the attempt was cancelled, and hands
// the attempt back (WorkerShutdown) when the worker stops. Register it under the activity type
// the plan names.
func Wrap(fn Func) func(ctx context.Context, in Input) (Result, error) {
	return func(ctx context.Context, in Input) (Result, error) {
		if err := scheduledByAWorkflow(ctx); err != nil {
			return Result{}, err
		}
		if err := in.check(); err != nil {
			return Result{}, err
		}
		identity := os.Getenv("TEAMRUN_WORKER_IDENTITY")
		if identity == "" {
			host, _ := os.Hostname()
			identity = fmt.Sprintf("%d@%s", os.Getpid(), host)
		}
		task := &Task{Input: in, WorkerIdentity: identity, started: time.Now()}
		// With tracing on (package tracing), the activity's span names its task; without, this is a no-op span.
		trace.SpanFromContext(ctx).SetAttributes(
			attribute.String("teamrun.run_id", in.WorkflowID),
			attribute.String("teamrun.task.key", in.TaskKey),
			attribute.Int("teamrun.attempt", in.Attempt),
			attribute.Int64("teamrun.fencing_token", in.FencingToken),
		)
		stop := make(chan struct{})
		var beating sync.WaitGroup
		beating.Add(1)
		go func() {
			defer beating.Done()
			ticker := time.NewTicker(HeartbeatInterval(activity.GetInfo(ctx).HeartbeatTimeout))
			defer ticker.Stop()
			for {
				task.heartbeat(ctx)
				select {
				case <-stop:
					return
				case <-ctx.Done():
					return
				case <-ticker.C:
				}
			}
		}()
		output, err := fn(ctx, task)
		close(stop)
		beating.Wait()
		evidence := map[string]any{"usage": task.Usage(), "workerIdentity": task.WorkerIdentity}
		if ctx.Err() != nil {
			select {
			case <-activity.GetWorkerStopChannel(ctx):
				return Result{}, temporal.NewApplicationError(
					fmt.Sprintf("worker %s is shutting down; the attempt is released", task.WorkerIdentity), WorkerShutdown, evidence)
			default:
			}
			// A result that races a cancellation is not a success: the SDK's own error says so.
			return Result{}, ctx.Err()
		}
		if err != nil {
			var app *temporal.ApplicationError
			if errors.As(err, &app) {
				if app.Type() == InvalidInput {
					return Result{}, err
				}
				return Result{}, temporal.NewApplicationErrorWithOptions(app.Message(), app.Type(), temporal.ApplicationErrorOptions{
					NonRetryable: app.NonRetryable(), Cause: app, Details: []any{evidence},
				})
			}
			if errors.Is(err, context.Canceled) {
				return Result{}, err
			}
			return Result{}, temporal.NewApplicationError(err.Error(), fmt.Sprintf("%T", err), evidence)
		}
		return Result{Output: output, Usage: task.Usage()}, nil
	}
}

// scheduledByAWorkflow refuses an activity no workflow scheduled: Temporal lets a client start one on its own, on any
// task queue, which would run the task outside any run's lease, budget and plan checks.
func scheduledByAWorkflow(ctx context.Context) error {
	info := activity.GetInfo(ctx)
	if info.WorkflowExecution.ID != "" {
		return nil
	}
	return temporal.NewNonRetryableApplicationError(fmt.Sprintf(
		"activity %s (id %s) was started by a client, not scheduled by a workflow: a teamrun task runs only for the run "+
			"that schedules it", info.ActivityType.Name, info.ActivityID), NotScheduled, nil)
}
