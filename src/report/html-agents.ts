/**
 * The report's agent record (`#agents`): per agent task, each turn's text with its tokens and cost, each tool call
 * folded with its arguments and result, the prompt and steers. The timeline's step filter applies here too: Model
 * shows the turns, Tools the tool calls, System the prompt and steers.
 */
import { count, usd } from '../format';
import type { AgentRecord, AgentRecordItem, AgentToolCall } from './agent-record';
import { escapeXml as esc } from './chart';
import type { RunReport } from './model';

export const AGENT_STYLE = `
#agents[data-steps="model"] .agent-item:not(.agent-model),
#agents[data-steps="tools"] .agent-item:not(.agent-tool),
#agents[data-steps="system"] .agent-item:not(.agent-sys) { display: none; }
.agent { border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; margin: 8px 0; }
.agent > summary { cursor: pointer; }
.agent-item { margin: 6px 0 6px 12px; border-left: 3px solid var(--line); padding-left: 8px; }
.agent-model { border-color: #0f6b8f; }
.agent-tool { border-color: #b5560b; }
.agent-tool > summary { cursor: pointer; }
.agent-item pre { white-space: pre-wrap; word-break: break-word; margin: 4px 0; background: var(--soft);
  padding: 4px 6px; border-radius: 4px; }
.agent-item .head { color: var(--muted); font-size: 12px; }
`;

export function agentsSection(report: RunReport): string {
  if (!report.agents.length) return '';
  return `<section id="agents" data-kind="tasks" data-steps="all">
  <h2>Agents</h2>
  <p class="hint">What each agent task said, turn by turn, and each tool call with its arguments and result (from
  its journal, redacted by its worker). The timeline's step filter applies here too.</p>
  ${report.agents.map(agentBlock).join('\n')}
</section>`;
}

function agentBlock(record: AgentRecord): string {
  const turns = record.items.filter((i) => i.kind === 'turn');
  const calls = turns.reduce((n, t) => n + t.toolCalls.length, 0);
  const tokens = turns.reduce((n, t) => n + t.inputTokens + t.outputTokens, 0);
  const priced = turns.filter((t) => t.costUsd !== null);
  const cost = priced.length ? ` · ${usd(priced.reduce((n, t) => n + (t.costUsd ?? 0), 0))}` : '';
  return (
    `<details class="agent" open data-task="${esc(record.key)}" id="agent-${esc(record.key)}">` +
    `<summary><code>${esc(record.key)}</code> · ${turns.length} turn${turns.length === 1 ? '' : 's'} · ` +
    `${calls} tool call${calls === 1 ? '' : 's'} · ${count(tokens)} tokens${cost}</summary>\n` +
    record.items.map(itemHtml).join('\n') +
    (record.omitted ? `\n<p class="note">${record.omitted} more steps left out of this page.</p>` : '') +
    `</details>`
  );
}

function itemHtml(item: AgentRecordItem): string {
  switch (item.kind) {
    case 'prompt':
      return (
        `<div class="agent-item agent-sys prompt"><div class="head">${esc(item.role)}</div>` +
        `<pre>${esc(item.text)}</pre></div>`
      );
    case 'steer':
      return (
        `<div class="agent-item agent-sys steer"><div class="head">steer before turn ${item.turn}` +
        `${item.actor ? ` by ${esc(item.actor)}` : ''}</div><pre>${esc(item.text)}</pre></div>`
      );
    case 'turn': {
      const cost = item.costUsd === null ? 'unpriced' : usd(item.costUsd);
      const head =
        `turn ${item.turn} · ${count(item.inputTokens)} in / ${count(item.outputTokens)} out tokens · ` +
        `<span class="cost">${cost}</span>`;
      const text = item.text ? `<pre class="text">${esc(item.text)}</pre>` : '';
      const names = item.toolCalls.map((c) => c.name).join(', ');
      return (
        `<div class="agent-item agent-model turn" data-turn="${item.turn}"><div class="head">${head}</div>${text}` +
        `${names ? `<div class="head">asks for ${esc(names)}</div>` : ''}</div>` +
        item.toolCalls.map((c) => toolHtml(c, item.turn)).join('')
      );
    }
  }
}

function toolHtml(call: AgentToolCall, turn: number): string {
  const outcome = call.result ? `${count(call.result.ms)} ms · ${call.result.ok ? 'ok' : 'failed'}` : 'no result';
  return (
    `<details class="agent-item agent-tool tool-call" data-turn="${turn}" data-tool="${esc(call.name)}">` +
    `<summary>turn ${turn} · tool <code>${esc(call.name)}</code> · ${outcome}</summary>` +
    `<div class="head">arguments</div><pre class="args">${esc(call.args)}</pre>` +
    (call.result ? `<div class="head">result</div><pre class="result">${esc(call.result.content)}</pre>` : '') +
    `</details>`
  );
}
