"""The decorator under temporalio's own ActivityEnvironment: what a teamrun task's activity
receives, returns, reports and does when it is cancelled."""

import asyncio
import dataclasses
from datetime import timedelta

import pytest
from temporalio import activity
from temporalio.exceptions import ApplicationError
from temporalio.testing import ActivityEnvironment

import teamrun_activity
from teamrun_activity import Task


def teamrun_input(**overrides):
    raw = {
        "workflowId": "nightly-1",
        "taskKey": "research",
        "attempt": 2,
        "fencingToken": 7,
        "leaseId": "nightly-1/research/7",
        "holder": "teammate-1",
        "input": {"topic": "fencing", "depth": 2},
        "dependencyOutputs": {"fetch": {"pages": 3}},
    }
    raw.update(overrides)
    return raw


def environment(heartbeat_timeout=timedelta(seconds=30)):
    env = ActivityEnvironment()
    env.info = dataclasses.replace(env.info, heartbeat_timeout=heartbeat_timeout)
    beats = []
    env.on_heartbeat = lambda *details: beats.append(details[0])
    return env, beats


@dataclasses.dataclass
class Research:
    topic: str
    depth: int = 1


async def until(what, check, timeout=10.0):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


async def test_the_task_arrives_typed_and_the_result_is_the_output_with_its_usage():
    seen = {}

    @teamrun_activity.defn(name="research_agent", input_type=Research)
    async def research(task: Task[Research]):
        seen["task"] = task
        task.report_usage(input_tokens=1000, output_tokens=200, model="py-model", cost_usd=0.01)
        teamrun_activity.report_usage(output_tokens=50, cost_usd=0.0025)
        return {"summary": f"{task.input.topic} at depth {task.input.depth}"}

    env, _ = environment()
    result = await env.run(research, teamrun_input())

    assert result == {
        "output": {"summary": "fencing at depth 2"},
        "usage": {"inputTokens": 1000, "outputTokens": 250, "model": "py-model", "costUsd": 0.0125},
    }
    task = seen["task"]
    assert (task.workflow_id, task.task_key, task.attempt, task.fencing_token) == ("nightly-1", "research", 2, 7)
    assert (task.lease_id, task.holder) == ("nightly-1/research/7", "teammate-1")
    assert task.input == Research(topic="fencing", depth=2)
    assert task.dependency_outputs == {"fetch": {"pages": 3}}


async def test_registers_under_the_activity_type_the_plan_names_with_a_plain_json_argument():
    @teamrun_activity.defn(name="research_agent")
    async def research(task: Task):
        return None

    definition = activity._Definition.from_callable(research)
    assert definition.name == "research_agent"
    assert definition.arg_types == [dict]

    @teamrun_activity.defn
    async def summarize(task: Task):
        return None

    assert activity._Definition.from_callable(summarize).name == "summarize"


async def test_an_attempt_with_no_usage_reports_an_empty_usage_and_input_stays_raw_without_a_type():
    @teamrun_activity.defn
    async def echo(task: Task):
        return task.input

    env, _ = environment()
    assert await env.run(echo, teamrun_input(input=[1, "two"])) == {"output": [1, "two"], "usage": {}}
    assert await env.run(echo, teamrun_input(input=None)) == {"output": None, "usage": {}}


@pytest.mark.parametrize(
    "raw, problem",
    [
        ("not an object", "must be a JSON object"),
        (teamrun_input(fencingToken="7"), "fencingToken must be int"),
        (teamrun_input(attempt=True), "attempt must be int"),
        ({k: v for k, v in teamrun_input().items() if k != "leaseId"}, "leaseId must be str"),
        (teamrun_input(dependencyOutputs=[]), "dependencyOutputs must be an object"),
        (teamrun_input(input={"topic": "x", "colour": "red"}), "input does not fit Research"),
    ],
)
async def test_input_that_is_not_teamrun_shape_fails_without_retry(raw, problem):
    @teamrun_activity.defn(input_type=Research)
    async def research(task: Task[Research]):
        return "never"

    env, _ = environment()
    with pytest.raises(ApplicationError) as caught:
        await env.run(research, raw)
    assert caught.value.type == teamrun_activity.INVALID_INPUT
    assert caught.value.non_retryable
    assert problem in caught.value.message


async def test_an_activity_a_client_started_on_its_own_is_refused_before_it_runs():
    ran = []

    @teamrun_activity.defn(name="research_agent")
    async def research(task: Task):
        ran.append(task)
        return "ran"

    env, _ = environment()
    # What a standalone activity's info says: no workflow scheduled it.
    env.info = dataclasses.replace(env.info, workflow_id=None, workflow_run_id=None, workflow_type=None)
    with pytest.raises(ApplicationError) as caught:
        await env.run(research, teamrun_input())
    assert caught.value.type == teamrun_activity.NOT_SCHEDULED
    assert caught.value.non_retryable
    assert "was started by a client, not scheduled by a workflow" in caught.value.message
    assert ran == []


async def test_heartbeats_carry_the_fencing_token_at_three_per_heartbeat_timeout():
    assert teamrun_activity.heartbeat_interval(timedelta(seconds=30)) == 10
    assert teamrun_activity.heartbeat_interval(timedelta(seconds=2)) == pytest.approx(2 / 3)
    # Without a heartbeat timeout (heartbeat "optional") it still beats, so a cancellation can arrive.
    assert teamrun_activity.heartbeat_interval(None) == 5.0

    @teamrun_activity.defn
    async def long_running(task: Task):
        task.progress({"step": 1})
        await until("three heartbeats", lambda: len(beats) >= 3)
        return "done"

    env, beats = environment(heartbeat_timeout=timedelta(milliseconds=150))
    assert (await env.run(long_running, teamrun_input()))["output"] == "done"
    assert {beat["fencingToken"] for beat in beats} == {7}
    assert all(isinstance(beat["workerIdentity"], str) and beat["workerIdentity"] for beat in beats)
    assert beats[-1]["progress"] == {"step": 1}
    # The heartbeat task stops with the attempt.
    count = len(beats)
    await asyncio.sleep(0.2)
    assert len(beats) == count


async def test_a_cancellation_reaches_the_code_as_the_sdk_cancelled_error():
    saw = []

    @teamrun_activity.defn
    async def waits(task: Task):
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            saw.append(task.fencing_token)
            raise

    env, beats = environment()
    running = asyncio.ensure_future(env.run(waits, teamrun_input()))
    await until("the first heartbeat", lambda: beats)
    env.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    assert saw == [7]


async def test_a_result_returned_after_a_cancellation_is_not_a_success():
    @teamrun_activity.defn
    async def ignores_cancel(task: Task):
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            pass
        return "finished anyway"

    env, beats = environment()
    running = asyncio.ensure_future(env.run(ignores_cancel, teamrun_input()))
    await until("the first heartbeat", lambda: beats)
    env.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running


async def test_a_worker_shutting_down_releases_the_attempt_for_another_worker():
    @teamrun_activity.defn
    async def waits(task: Task):
        await asyncio.sleep(3600)

    env, beats = environment()
    running = asyncio.ensure_future(env.run(waits, teamrun_input()))
    await until("the first heartbeat", lambda: beats)
    env.worker_shutdown()
    env.cancel()
    with pytest.raises(ApplicationError) as caught:
        await running
    assert caught.value.type == teamrun_activity.WORKER_SHUTDOWN


async def test_failures_keep_their_type_and_retry_choice_and_carry_the_usage_so_far():
    @teamrun_activity.defn(worker_identity="py-worker-1")
    async def refuses(task: Task):
        task.report_usage(input_tokens=10, cost_usd=0.001)
        raise ApplicationError("the source is gone", type="SourceGone", non_retryable=True)

    @teamrun_activity.defn
    async def crashes(task: Task):
        raise KeyError("missing")

    env, _ = environment()
    with pytest.raises(ApplicationError) as caught:
        await env.run(refuses, teamrun_input())
    assert (caught.value.type, caught.value.non_retryable, caught.value.message) == ("SourceGone", True, "the source is gone")
    assert caught.value.details == ({"usage": {"inputTokens": 10, "costUsd": 0.001}, "workerIdentity": "py-worker-1"},)

    with pytest.raises(ApplicationError) as caught:
        await env.run(crashes, teamrun_input())
    assert caught.value.type == "KeyError"
    assert not caught.value.non_retryable


async def test_report_usage_refuses_negative_figures_and_needs_a_task():
    with pytest.raises(RuntimeError, match="no teamrun task here"):
        teamrun_activity.report_usage(input_tokens=1)

    @teamrun_activity.defn
    async def negative(task: Task):
        task.report_usage(output_tokens=-1)

    env, _ = environment()
    with pytest.raises(ApplicationError, match="output_tokens must not be negative"):
        await env.run(negative, teamrun_input())


def test_only_async_functions_can_be_tasks():
    with pytest.raises(TypeError, match="must be an async def"):

        @teamrun_activity.defn
        def blocking(task: Task):
            return None
