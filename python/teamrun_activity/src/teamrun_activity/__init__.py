"""Write a Temporal activity that runs as a task of a teamrun team run (docs/activities.md)."""

from ._task import (
    INVALID_INPUT,
    NOT_SCHEDULED,
    WORKER_SHUTDOWN,
    Task,
    Usage,
    current_task,
    defn,
    heartbeat_interval,
    parse_task,
    progress,
    report_usage,
    task,
)

__all__ = [
    "INVALID_INPUT",
    "NOT_SCHEDULED",
    "WORKER_SHUTDOWN",
    "Task",
    "Usage",
    "current_task",
    "defn",
    "heartbeat_interval",
    "parse_task",
    "progress",
    "report_usage",
    "task",
]
