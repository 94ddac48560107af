/** The run report page's stylesheet and its filter script, inlined so the page works offline. */

export const STYLE = `
:root { --fg:#1d2430; --muted:#5d6776; --line:#dde2ea; --bg:#fff; --soft:#f5f7fa;
  --ok:#2f9e55; --bad:#d64545; --lease:#e08a00; --int:#7a4fd6; --cancel:#8a94a6; --run:#2b7bd6; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
  background: var(--bg); }
header, main, footer { padding: 0 24px; max-width: 1280px; margin: 0 auto; }
h1 { font-size: 20px; margin: 20px 0 4px; word-break: break-all; }
h2 { font-size: 16px; margin: 24px 0 8px; }
.meta { color: var(--muted); margin: 4px 0; }
.note { background: #fff7e0; border: 1px solid #f0d48a; padding: 6px 10px; border-radius: 6px; }
.state { display: inline-block; padding: 1px 8px; border-radius: 10px; background: var(--soft);
  border: 1px solid var(--line); color: var(--fg); font-weight: 600; }
.state-succeeded { background: #e3f5e9; border-color: #9fd8b2; }
.state-failed, .state-aborted, .state-workflow { background: #fbe5e5; border-color: #eeb0b0; }
.state-awaiting_adjudication, .state-unresolved, .state-budget_stopped { background: #fff0d6; border-color: #f0c77a; }
.filters { position: sticky; top: 0; background: var(--bg); padding: 10px 0; border-bottom: 1px solid var(--line);
  display: flex; gap: 6px; z-index: 2; }
.filters button { font: inherit; padding: 4px 14px; border-radius: 14px; border: 1px solid var(--line);
  background: var(--soft); cursor: pointer; }
.filters button[aria-pressed="true"] { background: var(--fg); color: #fff; border-color: var(--fg); }
body[data-filter="tasks"] section[data-kind]:not([data-kind="tasks"]),
body[data-filter="control"] section[data-kind]:not([data-kind="control"]),
body[data-filter="budget"] section[data-kind]:not([data-kind="budget"]) { display: none; }
#timeline[data-steps="model"] .row:not(.axis) .track > :not(.step-model),
#timeline[data-steps="tools"] .row:not(.axis) .track > :not(.step-tool),
#timeline[data-steps="system"] .row:not(.axis) .track > :not(.sys) { display: none; }
.filters.steps { position: static; border: none; padding: 0 0 8px; }
.step { position: absolute; top: 3px; transform: translateX(-50%); font-size: 10px; line-height: 14px;
  text-shadow: 0 0 2px #fff, 0 0 2px #fff; }
.step-model, .step-sample.step-model { color: #0f6b8f; }
.step-tool, .step-sample.step-tool { color: #b5560b; }
.step.failed { color: var(--bad); }
.step-sample { margin: 0 4px 0 10px; font-size: 10px; }
.mark.steer, .mark-sample.steer { color: var(--run); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .03em; }
tr.attempt.first td { border-top: 2px solid var(--line); }
small { color: var(--muted); }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
.empty, .hint { color: var(--muted); }
.pending { color: var(--lease); font-weight: 600; }
.legend { color: var(--muted); font-size: 12px; margin-bottom: 8px; }
.bar-sample { display: inline-block; width: 14px; height: 10px; border-radius: 2px; margin: 0 4px 0 10px;
  vertical-align: middle; }
.mark-sample { margin: 0 4px 0 10px; color: var(--int); }
.mark-sample.decision { color: var(--ok); }
.gantt { border: 1px solid var(--line); border-radius: 6px; padding: 6px 0; }
.row { display: flex; align-items: center; min-height: 26px; }
.row:nth-child(odd) { background: var(--soft); }
.label { width: 240px; flex: none; padding: 0 10px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.track { position: relative; flex: 1; height: 20px; margin-right: 14px; }
.bar { position: absolute; top: 2px; height: 16px; min-width: 14px; border-radius: 3px; color: #fff; font-size: 10px;
  line-height: 16px; padding-left: 3px; overflow: hidden; white-space: nowrap; }
.mark { position: absolute; top: 0; transform: translateX(-50%); color: var(--int); font-size: 14px;
  line-height: 20px; text-shadow: 0 0 2px #fff, 0 0 2px #fff, 0 0 3px #fff; }
.row.axis { background: none; min-height: 18px; }
.axis .tick { position: absolute; top: 0; transform: translateX(-50%); font-size: 11px; color: var(--muted);
  white-space: nowrap; }
.axis .tick:first-child { transform: none; }
.axis .tick:last-child { transform: translateX(-100%); }
.mark.decision { color: var(--ok); }
.o-succeeded { background: var(--ok); } .o-failed { background: var(--bad); }
.o-lease-expired { background: var(--lease); }
.o-interrupted { background: var(--int); } .o-cancelled, .o-released, .o-timed-out { background: var(--cancel); }
.o-running { background: var(--run); }
.o-scheduled { background: repeating-linear-gradient(45deg, #b7c6da, #b7c6da 4px, #d5deea 4px, #d5deea 8px); }
.outcome { color: #fff; padding: 0 6px; border-radius: 8px; font-size: 12px; }
.task-outcome { font-weight: 600; } .task-outcome.i-mock { color: var(--lease); } .artifact { font-size: 11px; }
.status { font-size: 11px; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; margin-top: 12px; }
.chart { border: 1px solid var(--line); border-radius: 6px; background: var(--soft); }
.chart .series { fill: none; stroke: var(--run); stroke-width: 2; }
.chart .axis { stroke: var(--line); }
.chart .limit { stroke: var(--bad); stroke-dasharray: 4 3; }
.chart text { font-size: 10px; fill: var(--muted); }
.chart .chart-title { font-size: 12px; fill: var(--fg); font-weight: 600; }
table.budget { width: auto; }
footer { color: var(--muted); font-size: 12px; margin: 32px auto 24px; }
.nowrap { white-space: nowrap; }
.graph-box { display: inline-block; max-width: 100%; overflow-x: auto; border: 1px solid var(--line);
  border-radius: 6px; padding: 8px; background: var(--soft); }
.graph .edge { fill: none; stroke: #8a94a6; stroke-width: 1.5; }
.graph .node-title { font-size: 13px; font-weight: 600; fill: var(--fg); }
.graph .node-key { font-size: 11px; fill: var(--muted); font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.graph a:hover rect, .graph a:focus rect { stroke-width: 3; }
.node-sample { display: inline-block; width: 14px; height: 10px; border: 2px solid; border-radius: 3px;
  margin: 0 4px 0 10px; vertical-align: middle; }
.row:target { outline: 2px solid var(--run); outline-offset: -2px; }
.label { line-height: 1.2; padding-top: 2px; padding-bottom: 2px; }
.label .title, .label .key { display: block; overflow: hidden; text-overflow: ellipsis; }
.label .key { font: 11px ui-monospace, SFMono-Regular, Menlo, monospace; }
.wait { position: absolute; top: 6px; height: 8px; border-radius: 4px;
  background: repeating-linear-gradient(90deg, #f0c77a, #f0c77a 6px, #fff0d6 6px, #fff0d6 10px);
  border: 1px solid #e08a00; font-size: 9px; line-height: 8px; color: #8a5a00; overflow: hidden; white-space: nowrap; }
.wait-sample { background: repeating-linear-gradient(90deg, #f0c77a, #f0c77a 6px, #fff0d6 6px, #fff0d6 10px);
  border: 1px solid #e08a00; }
tr.attempt-logs td { border-top: none; padding-top: 0; }
tr.attempt-logs summary { cursor: pointer; color: var(--muted); font-size: 12px; }
pre.log { background: #1d2430; color: #e6e9ef; padding: 8px 10px; border-radius: 6px; max-height: 320px;
  overflow: auto; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; white-space: pre-wrap;
  margin: 4px 0 8px; }
pre.log.stderr { color: #ffd4d4; }
a.web-ui { color: var(--run); }
`;

/** Filters work offline: they only toggle which sections show, and remember the choice in the URL fragment. */
export const SCRIPT = `
(function () {
  var buttons = document.querySelectorAll('button[data-filter]');
  var kinds = ['all', 'tasks', 'control', 'budget'];
  function show(kind) {
    if (kinds.indexOf(kind) < 0) kind = 'all';
    document.body.setAttribute('data-filter', kind);
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].setAttribute('aria-pressed', String(buttons[i].getAttribute('data-filter') === kind));
    }
  }
  for (var i = 0; i < buttons.length; i++) {
    buttons[i].addEventListener('click', function (e) {
      var kind = e.currentTarget.getAttribute('data-filter');
      show(kind);
      if (location.hash !== '#' + kind) location.hash = kind;
    });
  }
  // The timeline's step filter: which steps its rows show (the axis row has no steps, so it stays), and which
  // items of the agents' record.
  var stepped = document.querySelectorAll('#timeline, #agents');
  var stepButtons = document.querySelectorAll('button[data-steps]');
  for (var j = 0; j < stepButtons.length; j++) {
    stepButtons[j].addEventListener('click', function (e) {
      var steps = e.currentTarget.getAttribute('data-steps');
      for (var s = 0; s < stepped.length; s++) stepped[s].setAttribute('data-steps', steps);
      for (var k = 0; k < stepButtons.length; k++) {
        stepButtons[k].setAttribute('aria-pressed', String(stepButtons[k].getAttribute('data-steps') === steps));
      }
    });
  }
  window.addEventListener('hashchange', function () { show(location.hash.slice(1)); });
  show(location.hash.slice(1));
})();
`;
