"""A Python activity as a teamrun task: the example of docs/activities.md.

Run the worker:   python research_agent.py --task-queue py-agents
and a plan whose task says
  {"kind": "activity", "activityType": "research_agent", "taskQueue": "py-agents", "input": {"topic": "leases"}}
with "activityQueues": ["py-agents"].
"""

import argparse
import asyncio
import dataclasses
import os

from temporalio.client import Client
from temporalio.worker import Worker

import teamrun_activity
from teamrun_activity import Task


@dataclasses.dataclass
class Research:
    topic: str
    depth: int = 1


@teamrun_activity.defn(name="research_agent", input_type=Research)
async def research_agent(task: Task[Research]) -> dict:
    # The real work goes here (an LLM call, a crawl...). Any await is a point where teamrun's
    # interrupt arrives, as asyncio.CancelledError.
    await asyncio.sleep(0)
    notes = f"notes on {task.input.topic} (depth {task.input.depth})"
    # teamrun charges this to the run's budget; give the cost, the workflow has no price table.
    task.report_usage(input_tokens=1200, output_tokens=300, model="example-model", cost_usd=0.0042)
    return {
        "summary": notes,
        "seen": {
            "workflowId": task.workflow_id,
            "taskKey": task.task_key,
            "attempt": task.attempt,
            "fencingToken": task.fencing_token,
            "leaseId": task.lease_id,
            "holder": task.holder,
            "dependencies": sorted(task.dependency_outputs),
        },
    }


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", default=os.environ.get("TEMPORAL_ADDRESS", "localhost:7233"))
    parser.add_argument("--task-queue", default="py-agents")
    args = parser.parse_args()
    client = await Client.connect(args.address)
    async with Worker(client, task_queue=args.task_queue, activities=[research_agent]):
        print(f"research_agent worker on {args.task_queue}", flush=True)
        await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
