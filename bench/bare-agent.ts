/**
 * The bare agent baseline's activities: what a user who writes an agent loop on Temporal by hand
 * runs (the OpenAI Agents SDK's shape): one activity per model call, one per tool call.
 */
export interface ChatMessage {
  role: string;
  content: string | null;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
}

export interface BareAgentActivities {
  /** One chat completion with the tool offered; the assistant's message. */
  bareModelCall(input: { baseUrl: string; model: string; messages: ChatMessage[] }): Promise<ChatMessage>;
  /** The tool teamrun's side calls (`set_output`): records nothing, answers as teamrun's does. */
  bareToolCall(input: { name: string; arguments: string }): Promise<string>;
}

const SET_OUTPUT = {
  type: 'function',
  function: {
    name: 'teamrun__set_output',
    description: 'Set the output of the task',
    parameters: { type: 'object', properties: { output: {} }, required: ['output'] },
  },
} as const;

export const bareAgentActivities: BareAgentActivities = {
  async bareModelCall({ baseUrl, model, messages }) {
    const response = await fetch(`${baseUrl}/chat/completions`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${process.env.BENCH_AGENT_KEY ?? ''}`,
      },
      body: JSON.stringify({ model, messages, tools: [SET_OUTPUT], max_tokens: 1024 }),
      signal: AbortSignal.timeout(60_000),
    });
    if (!response.ok) throw new Error(`model call: HTTP ${response.status}`);
    const body = (await response.json()) as { choices: Array<{ message: ChatMessage }> };
    return body.choices[0].message;
  },
  async bareToolCall({ name }) {
    return name === 'teamrun__set_output' ? 'output set' : `no tool "${name}"`;
  },
};
