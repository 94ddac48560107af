"""A real Python worker (the temporalio SDK) for test/integration/activity-python.test.ts.

Args: <address> <task queue> <identity> <marker dir>. Serves the docs' research_agent example
and activities that leave marker files (<dir>/<key>-<attempt>.<what>) for the test to read.
Prints "python worker ready" once it polls; SIGTERM shuts it down gracefully.
"""

import asyncio
import json
import os
import signal
import sys
from datetime import timedelta
from pathlib import Path

from temporalio.client import Client
from temporalio.worker import Worker

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python" / "teamrun_activity" / "examples"))

import teamrun_activity  # noqa: E402
from research_agent import research_agent  # noqa: E402
from teamrun_activity import Task  # noqa: E402
from teamrun_activity.tracing import tracing_interceptors  # noqa: E402

address, task_queue, identity, marker_dir = sys.argv[1:5]
markers = Path(marker_dir)


def mark(task: Task, what: str, body: object) -> None:
    path = markers / f"{task.task_key}-{task.attempt}.{what}"
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(body))
    tmp.rename(path)


def started(task: Task) -> None:
    mark(task, "started", {"pid": os.getpid(), "identity": identity, "fencingToken": task.fencing_token})


@teamrun_activity.defn(worker_identity=identity)
async def wait_for_cancel(task: Task) -> str:
    """Runs until teamrun cancels it; the marker proves the cancellation reached Python."""
    started(task)
    task.report_usage(input_tokens=10)
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
        mark(task, "cancelled", {"fencingToken": task.fencing_token})
        raise
    return "never"


@teamrun_activity.defn(worker_identity=identity)
async def unpriced_agent(task: Task) -> str:
    """Reports tokens of a model with no cost: usage the run cannot price."""
    task.report_usage(input_tokens=500, output_tokens=20, model="local-model")
    return "answered"


@teamrun_activity.defn(worker_identity=identity)
async def hang_first_attempt(task: Task) -> dict:
    """Attempt 1 hangs (until its worker dies); later ones finish at once."""
    started(task)
    if task.attempt == 1:
        await asyncio.sleep(3600)
    return {"attempt": task.attempt, "fencingToken": task.fencing_token, "worker": identity}


async def fenced_write(task: Task) -> dict:
    """Writes the task's resource through teamrun's fenced store (`teamrun fence write`) with this attempt's token."""
    spec = task.input
    proc = await asyncio.create_subprocess_exec(
        *spec["teamrun"], "fence", "write",
        "--db", spec["db"], "--resource", spec["resource"],
        "--token", str(task.fencing_token), "--value", f"written by attempt {task.attempt}",
        "--writer", task.lease_id,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    out, err = await proc.communicate()
    result = {"exitCode": proc.returncode, "stdout": out.decode(), "stderr": err.decode()}
    mark(task, "write", result)
    return result


@teamrun_activity.defn(worker_identity=identity)
async def fenced_publish(task: Task) -> dict:
    """Attempt 1 waits (for a go file, or until it is cancelled) and then writes anyway, as a
    stale worker that wakes up would; later attempts write at once."""
    started(task)
    cancelled = False
    if task.attempt == 1:
        go = markers / "go"
        try:
            while not go.exists():
                await asyncio.sleep(0.05)
        except asyncio.CancelledError:
            cancelled = True
    result = await asyncio.shield(fenced_write(task))
    if cancelled:
        raise asyncio.CancelledError()
    if result["exitCode"] != 0:
        raise RuntimeError(f"fenced write refused: {result['stderr'].strip()}")
    return {"wrote": f"written by attempt {task.attempt}", "fencingToken": task.fencing_token}


async def main() -> None:
    # With OTEL_EXPORTER_OTLP_ENDPOINT set (test/integration/tracing.test.ts), activities join the run's trace.
    client = await Client.connect(address, interceptors=tracing_interceptors())
    worker = Worker(
        client,
        task_queue=task_queue,
        identity=identity,
        activities=[research_agent, unpriced_agent, wait_for_cancel, hang_first_attempt, fenced_publish],
        # As teamrun's own worker: a heartbeat reaches the server within a second, so a
        # cancellation arrives within about a second.
        max_heartbeat_throttle_interval=timedelta(seconds=1),
        default_heartbeat_throttle_interval=timedelta(seconds=1),
        graceful_shutdown_timeout=timedelta(seconds=1),
        # One attempt at a time: a worker busy with one holds no open poll, so a worker the test
        # freezes mid-attempt cannot swallow the next attempt meant for another worker.
        max_concurrent_activities=1,
    )
    # SIGTERM is a graceful shutdown: running attempts are told, then cancelled after the grace time.
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with worker:
        print("python worker ready", flush=True)
        await stop.wait()
    print("python worker stopped", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
    # The worker has shut down (its attempts handed back). Exit without the interpreter's teardown, where the SDK's
    # native threads still run: once, under CI load, the process died of a signal there, after a clean shutdown.
    sys.stdout.flush()
    os._exit(0)
