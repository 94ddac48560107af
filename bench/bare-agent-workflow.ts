import { proxyActivities } from '@temporalio/workflow';
import type { BareAgentActivities, ChatMessage } from './bare-agent';

export interface BareAgentInput {
  baseUrl: string;
  model: string;
  /** Agents run one after another (a team run with one teammate). */
  agents: number;
}

/**
 * The bare Temporal agent loop the agent benchmark compares teamrun's `agent` kind with: per
 * agent, a model call as an activity, then each tool call it asked for as an activity, until the
 * model answers without tools. The transcript lives in the workflow (its history holds it).
 */
export async function bareAgentRun(input: BareAgentInput): Promise<{ steps: number }> {
  const { bareModelCall, bareToolCall } = proxyActivities<BareAgentActivities>({
    startToCloseTimeout: '1m',
    retry: { maximumAttempts: 1 },
  });
  let steps = 0;
  for (let a = 0; a < input.agents; a++) {
    const messages: ChatMessage[] = [{ role: 'user', content: `Agent ${a}: write` }];
    for (;;) {
      const answer = await bareModelCall({ baseUrl: input.baseUrl, model: input.model, messages });
      steps += 1;
      messages.push(answer);
      if (!answer.tool_calls?.length) break;
      for (const call of answer.tool_calls) {
        const content = await bareToolCall(call.function);
        steps += 1;
        messages.push({ role: 'tool', tool_call_id: call.id, content });
      }
    }
  }
  return { steps };
}
