"""A Temporal activity that runs as one attempt of a teamrun task.

teamrun schedules the activity with one JSON argument (see docs/activities.md in the teamrun
repository) and reads back ``{"output": ..., "usage": {...}}``. This module turns that protocol
into a typed :class:`Task` and a decorator; everything else is the ``temporalio`` SDK's own.
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import inspect
import os
import socket
import time
from datetime import timedelta
from typing import Any, Awaitable, Callable, Generic, Optional, TypeVar

from temporalio import activity
from temporalio.exceptions import ApplicationError

__all__ = [
    "Task",
    "Usage",
    "defn",
    "task",
    "current_task",
    "report_usage",
    "progress",
    "heartbeat_interval",
    "parse_task",
    "INVALID_INPUT",
    "WORKER_SHUTDOWN",
]

P = TypeVar("P")

#: Error type of an input that is not teamrun's shape (the task fails without retry).
INVALID_INPUT = "TeamInvalidActivityInput"
#: Error type of an activity a client started on its own (a standalone activity): only a workflow, a team
#: run, schedules a task (the task fails without retry, before the function runs).
NOT_SCHEDULED = "TeamActivityNotScheduled"
#: Error type teamrun reads as "the worker is shutting down": the task is leased again at once.
WORKER_SHUTDOWN = "TeamWorkerShutdown"

#: Heartbeat pace without a heartbeat timeout (``heartbeat: "optional"``): cancellation still
#: reaches an activity only in the response to a heartbeat.
_UNLEASED_HEARTBEAT_SECONDS = 5.0


@dataclasses.dataclass
class Usage:
    """What an attempt consumed, in teamrun's usage shape. Tokens and dollars add up."""

    input_tokens: float = 0
    output_tokens: float = 0
    cache_tokens: float = 0
    model: Optional[str] = None
    #: teamrun's workflow cannot read a price table: report the cost, or the usage is unpriced.
    cost_usd: Optional[float] = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.input_tokens:
            out["inputTokens"] = self.input_tokens
        if self.output_tokens:
            out["outputTokens"] = self.output_tokens
        if self.cache_tokens:
            out["cacheTokens"] = self.cache_tokens
        if self.model is not None:
            out["model"] = self.model
        if self.cost_usd is not None:
            out["costUsd"] = self.cost_usd
        return out


@dataclasses.dataclass
class Task(Generic[P]):
    """One attempt of a teamrun task, as the activity's argument describes it."""

    workflow_id: str
    task_key: str
    attempt: int
    #: Pass it to every side effect so the resource can refuse a stale writer.
    fencing_token: int
    lease_id: str
    holder: str
    #: The plan's ``executor.input``, parsed into ``input_type`` when the decorator names one.
    input: P
    #: Outputs of the tasks this one depends on, by task key.
    dependency_outputs: dict[str, Any]
    usage: Usage = dataclasses.field(default_factory=Usage)
    #: Sent with every heartbeat (teamrun records the worker of a lost lease from it).
    worker_identity: str = ""
    _progress: Any = None
    _started: float = dataclasses.field(default_factory=time.monotonic)

    def report_usage(
        self,
        input_tokens: float = 0,
        output_tokens: float = 0,
        cache_tokens: float = 0,
        model: Optional[str] = None,
        cost_usd: Optional[float] = None,
    ) -> None:
        """Adds to the usage this attempt reports; teamrun charges it to the run's budget."""
        for name, value in (("input_tokens", input_tokens), ("output_tokens", output_tokens), ("cache_tokens", cache_tokens)):
            if value < 0:
                raise ValueError(f"report_usage: {name} must not be negative, got {value}")
        if cost_usd is not None and cost_usd < 0:
            raise ValueError(f"report_usage: cost_usd must not be negative, got {cost_usd}")
        self.usage.input_tokens += input_tokens
        self.usage.output_tokens += output_tokens
        self.usage.cache_tokens += cache_tokens
        if model is not None:
            self.usage.model = model
        if cost_usd is not None:
            self.usage.cost_usd = (self.usage.cost_usd or 0) + cost_usd

    def progress(self, details: Any) -> None:
        """Sets what the next heartbeats carry as ``progress`` (JSON)."""
        self._progress = details

    def heartbeat(self) -> None:
        activity.heartbeat(
            {
                "workerIdentity": self.worker_identity,
                "fencingToken": self.fencing_token,
                "elapsedMs": int((time.monotonic() - self._started) * 1000),
                "progress": self._progress,
            }
        )


_current: contextvars.ContextVar[Task[Any]] = contextvars.ContextVar("teamrun_task")


def current_task() -> Task[Any]:
    """The task of the attempt running in this context (inside a ``@defn`` activity)."""
    try:
        return _current.get()
    except LookupError:
        raise RuntimeError("no teamrun task here: call this inside a @teamrun_activity.defn activity") from None


def report_usage(**usage: Any) -> None:
    """``current_task().report_usage(...)``."""
    current_task().report_usage(**usage)


def progress(details: Any) -> None:
    """``current_task().progress(...)``."""
    current_task().progress(details)


def heartbeat_interval(heartbeat_timeout: Optional[timedelta]) -> float:
    """Seconds between heartbeats: three per heartbeat timeout (the task's lease), so one late
    heartbeat never loses the lease."""
    if heartbeat_timeout is None or heartbeat_timeout.total_seconds() <= 0:
        return _UNLEASED_HEARTBEAT_SECONDS
    return max(0.05, heartbeat_timeout.total_seconds() / 3)


_FIELDS = {
    "workflowId": str,
    "taskKey": str,
    "attempt": int,
    "fencingToken": int,
    "leaseId": str,
    "holder": str,
}


def parse_task(raw: Any, input_type: Optional[Callable[..., Any]] = None, worker_identity: str = "") -> Task[Any]:
    """Parses teamrun's argument; a wrong shape is a non-retryable ``TeamInvalidActivityInput``."""
    if not isinstance(raw, dict):
        raise ApplicationError(f"teamrun task input must be a JSON object, got {type(raw).__name__}", type=INVALID_INPUT, non_retryable=True)
    values: dict[str, Any] = {}
    for key, kind in _FIELDS.items():
        value = raw.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise ApplicationError(
                f"teamrun task input: {key} must be {kind.__name__}, got {value!r}",
                type=INVALID_INPUT,
                non_retryable=True,
            )
        values[key] = value
    deps = raw.get("dependencyOutputs", {})
    if not isinstance(deps, dict):
        raise ApplicationError("teamrun task input: dependencyOutputs must be an object", type=INVALID_INPUT, non_retryable=True)
    payload = raw.get("input")
    if input_type is not None:
        try:
            payload = input_type(**payload) if isinstance(payload, dict) else input_type(payload)
        except (TypeError, ValueError) as err:
            raise ApplicationError(
                f"teamrun task input: input does not fit {getattr(input_type, '__name__', input_type)}: {err}",
                type=INVALID_INPUT,
                non_retryable=True,
            ) from err
    return Task(
        workflow_id=values["workflowId"],
        task_key=values["taskKey"],
        attempt=values["attempt"],
        fencing_token=values["fencingToken"],
        lease_id=values["leaseId"],
        holder=values["holder"],
        input=payload,
        dependency_outputs=deps,
        worker_identity=worker_identity,
    )


def _scheduled_by_a_workflow() -> None:
    """Refuses an activity no workflow scheduled: Temporal lets a client start one on its own, on any task
    queue, which would run the task outside any run's lease, budget and plan checks."""
    info = activity.info()
    if info.workflow_id:
        return
    raise ApplicationError(
        f"activity {info.activity_type} (id {info.activity_id}) was started by a client, not scheduled by a "
        "workflow: a teamrun task runs only for the run that schedules it",
        type=NOT_SCHEDULED,
        non_retryable=True,
    )


def _default_identity() -> str:
    return os.environ.get("TEAMRUN_WORKER_IDENTITY") or f"{os.getpid()}@{socket.gethostname()}"


def task(
    fn: Optional[Callable[[Task[Any]], Awaitable[Any]]] = None,
    *,
    input_type: Optional[Callable[..., Any]] = None,
    worker_identity: Optional[str] = None,
) -> Any:
    """Wraps ``async def fn(task: Task) -> output`` as the function teamrun schedules: parses
    the argument, heartbeats while ``fn`` runs, returns ``{"output", "usage"}``. Combine with
    ``activity.defn`` yourself, or use :func:`defn`, which does both."""

    def wrap(fn: Callable[[Task[Any]], Awaitable[Any]]) -> Callable[[dict], Awaitable[dict]]:
        if not inspect.iscoroutinefunction(fn):
            raise TypeError(f"teamrun_activity: {fn.__name__} must be an async def (heartbeats and cancellation need the event loop)")
        identity = worker_identity

        async def run_attempt(raw: dict) -> dict:
            _scheduled_by_a_workflow()
            t = parse_task(raw, input_type, identity or _default_identity())
            _label_span(t)
            token = _current.set(t)
            beating = asyncio.create_task(_heartbeat(t))
            try:
                output = await fn(t)
                # A result that races a cancellation is not a success: the SDK's own error says so.
                if activity.is_cancelled():
                    raise asyncio.CancelledError()
                return {"output": output, "usage": t.usage.to_json()}
            except asyncio.CancelledError:
                if activity.is_worker_shutdown():
                    raise ApplicationError(
                        f"worker {t.worker_identity} is shutting down; the attempt is released",
                        {"usage": t.usage.to_json(), "workerIdentity": t.worker_identity},
                        type=WORKER_SHUTDOWN,
                    ) from None
                raise
            except ApplicationError as err:
                if err.type == INVALID_INPUT:
                    raise
                # Keep the type and retry choice; add what the attempt used, so teamrun charges it.
                raise ApplicationError(
                    err.message,
                    {"usage": t.usage.to_json(), "workerIdentity": t.worker_identity},
                    type=err.type,
                    non_retryable=err.non_retryable,
                    next_retry_delay=err.next_retry_delay,
                ) from err
            except Exception as err:
                raise ApplicationError(
                    f"{type(err).__name__}: {err}",
                    {"usage": t.usage.to_json(), "workerIdentity": t.worker_identity},
                    type=type(err).__name__,
                ) from err
            finally:
                beating.cancel()
                _current.reset(token)

        # Copied by hand, not functools.wraps: the SDK reads the parameter type from the
        # signature, and teamrun's argument is a plain JSON object, not the user's Task.
        run_attempt.__name__ = fn.__name__
        run_attempt.__qualname__ = fn.__qualname__
        run_attempt.__doc__ = fn.__doc__
        run_attempt.__module__ = fn.__module__
        return run_attempt

    return wrap(fn) if fn is not None else wrap


def _label_span(t: Task[Any]) -> None:
    """With tracing on (``teamrun_activity.tracing``), the activity's span names its attempt as teamrun's do."""
    try:
        from opentelemetry import trace
    except ImportError:
        return
    trace.get_current_span().set_attributes(
        {
            "teamrun.run_id": t.workflow_id,
            "teamrun.task.key": t.task_key,
            "teamrun.attempt": t.attempt,
            "teamrun.fencing_token": t.fencing_token,
            "teamrun.holder": t.holder,
        }
    )


def defn(
    fn: Optional[Callable[[Task[Any]], Awaitable[Any]]] = None,
    *,
    name: Optional[str] = None,
    input_type: Optional[Callable[..., Any]] = None,
    worker_identity: Optional[str] = None,
) -> Any:
    """``@activity.defn`` for a teamrun task: ``name`` is the activity type the plan's
    ``executor.activityType`` names (default: the function's name)."""

    def wrap(fn: Callable[[Task[Any]], Awaitable[Any]]) -> Callable[[dict], Awaitable[dict]]:
        wrapped = task(fn, input_type=input_type, worker_identity=worker_identity)
        return activity.defn(wrapped, name=name or fn.__name__)

    return wrap(fn) if fn is not None else wrap


async def _heartbeat(t: Task[Any]) -> None:
    interval = heartbeat_interval(activity.info().heartbeat_timeout)
    while True:
        t.heartbeat()
        await asyncio.sleep(interval)
