"""Self-contained HTML: the replay page of one game (and the style the report
shares).  Everything is inline (no network, no external scripts or fonts), so
a page opens from the file system and can be mailed around.

The page carries the replay's frames as JSON; a small script draws the grids
of the current step (the drawing itself is decided by the game's view) and
handles the step buttons, the slider, the arrow keys and autoplay.

What a bot printed is shown as the terminal shows it (``arena.text.display``:
a bidi override or an escape sequence as a visible escape, not reordering or
hiding the text after it), and the JSON cannot end its element
(``arena.text.json_for_html``).
"""

from __future__ import annotations

import html
from typing import Any

from arena import games
from arena.replay import Replay, outcome_text
from arena.text import display, json_for_html
from arena.views import SEAT_COLOURS

STYLE = """
:root { --ink: #1f2328; --muted: #667085; --line: #d0d4da; --bg: #fafaf7; --panel: #ffffff; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       color: var(--ink); background: var(--bg); }
header { padding: 14px 24px 10px; background: #1f2a3c; color: #fff; }
header h1 { margin: 0; font-size: 20px; font-weight: 650; }
header .sub { color: #c9d2e3; margin-top: 4px; }
header a { color: #9cc3ff; }
main { padding: 16px 24px 40px; }
.chip { display: inline-block; padding: 1px 9px; border-radius: 10px; color: #fff; font-weight: 600; }
.scroll { overflow-x: auto; max-width: 100%; margin: 8px 0 22px; }
table.t { border-collapse: collapse; background: var(--panel); }
table.t th a { display: inline; }
table.t th, table.t td { border: 1px solid var(--line); padding: 4px 10px; text-align: right; }
table.t th { background: #eef1f5; }
table.t td.l, table.t th.l { text-align: left; }
table.t td.x { background: #eee; }
table.t a { color: #1b5fd1; text-decoration: none; display: block; }
table.t a:hover { text-decoration: underline; }
h2 { font-size: 17px; margin: 22px 0 6px; }
.bad { color: #b42318; }
pre { background: #f3f4f6; border: 1px solid var(--line); padding: 8px; max-height: 240px; overflow: auto;
      white-space: pre-wrap; font: 12.5px/1.35 ui-monospace, "DejaVu Sans Mono", monospace; margin: 4px 0; }
"""

REPLAY_STYLE = """
.layout { display: flex; gap: 24px; align-items: flex-start; flex-wrap: wrap; }
@media (min-width: 1000px) { .layout { flex-wrap: nowrap; } }
.boards { display: flex; gap: 18px; flex-wrap: wrap; align-items: flex-start; }
.gridbox .title { font-size: 13px; color: var(--muted); margin-bottom: 4px; text-align: center; }
.grid { display: grid; width: max-content; gap: 1px; background: #b9b4a7; border: 2px solid #6b665b; border-radius: 3px; }
.framed { display: grid; gap: 0; }
.lab { font: 11px/1 ui-monospace, "DejaVu Sans Mono", monospace; color: var(--muted); display: flex;
       font-size: min(11px, calc(var(--cell) + 1px)); /* a label no taller than its cell */
       align-items: center; justify-content: center; font-variant-numeric: tabular-nums; }
.lab.row { justify-content: flex-end; padding-right: 3px; }
.lab.col { align-items: flex-end; padding-bottom: 2px; }
.lab.col.up { writing-mode: vertical-rl; transform: rotate(180deg); align-items: center;
              justify-content: flex-start; padding: 0 0 2px; } /* read upwards: wider than its cell */
.sq { width: var(--cell); height: var(--cell); display: flex; background: #f4f1ea; }
.sq.wood { background: #e9d8b4; }
.c { flex: 1; display: flex; align-items: center; justify-content: center; position: relative;
     font-weight: 650; font-size: calc(var(--cell) * 0.5); color: #1f2328; font-variant-numeric: tabular-nums; }
.c.painted { color: #fff; text-shadow: 0 1px 1px rgba(0,0,0,.35); }
.c.number.dead { color: #c4bfb2; }
.c.new { box-shadow: inset 0 0 0 3px #111; z-index: 1; }
.c.painted.new { box-shadow: inset 0 0 0 3px #ffe24a; }
.c.bad { box-shadow: inset 0 0 0 3px #d92d20; background-image: repeating-linear-gradient(45deg,
         rgba(217,45,32,.35) 0 4px, transparent 4px 8px); }
.c.ball { border-radius: 50%; margin: 9%; border: 1px solid #555; box-shadow: inset -3px -4px 6px rgba(0,0,0,.25); }
.c.ball.new { outline: 3px solid #d92d20; outline-offset: 3px; }
.c.ball.win { box-shadow: 0 0 0 4px #f5b400, inset -3px -4px 6px rgba(0,0,0,.25); }
.c.letter { font-size: calc(var(--cell) * 0.55); }
.c.letter.new { color: #fff; }
.c.word { box-shadow: inset 0 0 0 2px #d4a900; }
.c.letter.new.word { box-shadow: inset 0 0 0 2px #d4a900; }
.c.tile { border-radius: 4px; margin: 5%; }
.c.magnet { color: #5b3da8; font-size: calc(var(--cell) * 0.6); }
.c.held { outline: 2px dashed #5b3da8; outline-offset: -3px; }
.c.piece { border-radius: 6px; margin: 6%; color: #fff;
           text-shadow: 0 0 2px #000, 0 0 2px #000; }
.c.cleared::after { content: "✕"; position: absolute; inset: 0; display: flex; align-items: center;
                    justify-content: center; color: #fff; font-size: calc(var(--cell) * 0.7);
                    text-shadow: 0 0 3px #000, 0 0 3px #000; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px;
         min-width: 320px; max-width: 520px; flex: 1; }
.controls { display: flex; gap: 6px; align-items: center; margin: 0 0 14px; flex-wrap: wrap; }
.controls button { font-size: 16px; min-width: 38px; padding: 4px 8px; border: 1px solid var(--line);
                   border-radius: 6px; background: #fff; cursor: pointer; }
.controls button:hover { background: #eef1f5; }
.controls input[type=range] { flex: 1; min-width: 200px; }
#counter { font-variant-numeric: tabular-nums; color: var(--muted); min-width: 110px; }
#label { font-weight: 650; font-size: 16px; margin-bottom: 4px; }
#who { color: var(--muted); margin-bottom: 6px; }
#who.bad { color: #b42318; font-weight: 600; }
#notes { margin: 4px 0; padding-left: 18px; }
#fault { background: #fef3f2; border: 1px solid #fda29b; color: #912018; padding: 6px 9px; border-radius: 6px;
         margin: 6px 0; white-space: pre-wrap; }
.legend { color: var(--muted); font-size: 13px; margin-top: 10px; max-width: 760px; }
.result { margin-top: 10px; font-weight: 600; }
.hint { color: var(--muted); font-size: 12.5px; }
"""

SCRIPT = """
(function () {
  const data = JSON.parse(document.getElementById('replay-data').textContent);
  // Frames are stored as changes to the previous one's grids: rebuild them whole.
  const frames = [];
  data.steps.forEach((step, i) => {
    const grids = step.grids.map((g, j) => {
      if (!g.d) return g;
      const prev = frames[i - 1].grids[j];
      const cells = prev.cells.slice();
      g.d.forEach(([k, cell]) => { cells[k] = cell; });
      return {title: g.title, cols: prev.cols, origin: prev.origin, cells: cells};
    });
    frames.push(Object.assign({}, step, {grids: grids}));
  });
  const $ = (id) => document.getElementById(id);
  const slider = $('slider');
  slider.max = frames.length - 1;
  let at = 0, timer = null;

  // Fit the boards to the window both ways: beside the panel where the window is wide enough,
  // above it otherwise, and never taller than the room under the controls.  Of the ways to lay
  // out a step's grids (1, 2, ... to a row), the one with the largest cells; a grid costs
  // about 30 px across (its row labels and border) and 50 px down (title, column labels, border)
  // besides its cells, each 1 px more than its size (the gap), and 18 px between grids.
  function cellSize(g, count) {
    const rows = Math.ceil(g.cells.length / g.cols);
    const beside = window.innerWidth >= 1000;
    const width = window.innerWidth - 48 - (beside ? 380 : 0);
    const top = $('boards').getBoundingClientRect().top + window.scrollY;
    const height = Math.max(200, window.innerHeight - top - 70);
    let best = 0;
    for (let perRow = 1; perRow <= count; perRow++) {
      const stacks = Math.ceil(count / perRow);
      const across = ((width - 18 * (perRow - 1)) / perRow - 30) / g.cols;
      const down = ((height - 18 * (stacks - 1)) / stacks - 50) / rows;
      best = Math.max(best, Math.min(across, down));
    }
    return Math.max(6, Math.min(44, Math.floor(best) - 1));
  }
  function drawGrid(g, count) {
    const box = document.createElement('div');
    box.className = 'gridbox';
    const title = document.createElement('div');
    title.className = 'title';
    title.textContent = g.title;
    const grid = document.createElement('div');
    grid.className = 'grid';
    const size = cellSize(g, count);
    grid.style.setProperty('--cell', size + 'px');
    grid.style.gridTemplateColumns = 'repeat(' + g.cols + ', var(--cell))';
    // coordinates as the game counts them: rows down the left, columns along the top
    const origin = g.origin || 0, rows = Math.ceil(g.cells.length / g.cols);
    const framed = document.createElement('div');
    framed.className = 'framed';
    framed.style.setProperty('--cell', size + 'px');
    framed.style.gridTemplateColumns = '22px auto';
    // a column's label is written upwards where its digits are wider than the column
    const labelWidth = String(origin + g.cols - 1).length * Math.min(11, size + 1) * 0.62;
    const up = labelWidth > size + 1;
    framed.style.gridTemplateRows = (up ? Math.ceil(labelWidth) + 6 : 16) + 'px auto';
    const cols = document.createElement('div');
    cols.style.display = 'grid';
    cols.style.gridTemplateColumns = 'repeat(' + g.cols + ', ' + size + 'px)';
    cols.style.gap = '1px';
    cols.style.padding = '0 2px';
    for (let c = 0; c < g.cols; c++) {
      const l = document.createElement('div'); l.className = up ? 'lab col up' : 'lab col'; l.textContent = origin + c;
      cols.appendChild(l);
    }
    const rowLabels = document.createElement('div');
    rowLabels.style.display = 'grid';
    rowLabels.style.gridTemplateRows = 'repeat(' + rows + ', ' + size + 'px)';
    rowLabels.style.gap = '1px';
    rowLabels.style.padding = '2px 0';
    for (let r = 0; r < rows; r++) {
      const l = document.createElement('div'); l.className = 'lab row'; l.textContent = origin + r;
      rowLabels.appendChild(l);
    }
    framed.append(document.createElement('div'), cols, rowLabels, grid);
    g.cells.forEach((cell, k) => {
      const [text = '', fill = '', classes = '', key] = cell;
      const sq = document.createElement('div');
      sq.className = /\\bball\\b/.test(classes) ? 'sq wood' : 'sq';
      const c = document.createElement('div');
      c.className = 'c ' + classes;
      c.textContent = text;
      c.dataset.k = key === undefined ? text : key;
      if (fill) c.style.background = fill;
      sq.appendChild(c);
      grid.appendChild(sq);
    });
    box.append(title, framed);
    return box;
  }
  function show(i) {
    at = Math.max(0, Math.min(frames.length - 1, i));
    const f = frames[at];
    const boards = $('boards');
    boards.replaceChildren(...f.grids.map((g) => drawGrid(g, f.grids.length)));
    boards.dataset.step = at;
    slider.value = at;
    const m = f.move === undefined ? null : data.moves[f.move];
    // per-move games count moves as the game does (an opening's too); a plan's steps are its operations
    const last = data.moves.length ? data.moves[data.moves.length - 1].number : data.first;
    $('counter').textContent = data.plan ? 'step ' + at + ' / ' + (frames.length - 1)
        : 'move ' + (m ? m.number : data.first) + ' / ' + last;
    $('label').textContent = f.label;
    $('who').textContent = m ? ((data.plan ? 'the plan of ' : 'move ' + m.number + ' · ') + m.bot + ' · ' +
        m.verdict + ' · CPU ' +
        m.cpu.toFixed(3) + ' s · wall ' + m.wall.toFixed(3) + ' s' +
        (m.wait ? ' (' + m.wait.toFixed(3) + ' s waiting for a core)' : '')) : 'before the first move';
    $('who').className = m && m.verdict !== 'ok' ? 'bad' : '';
    $('notes').replaceChildren(...f.notes.map((n) => { const li = document.createElement('li');
                                                       li.textContent = n; return li; }));
    $('fault').hidden = !(m && m.message);
    $('fault').textContent = m && m.message ? m.verdict + ': ' + m.message : '';
    const out = $('output');
    out.replaceChildren();
    if (m) for (const [name, key] of [['game.out', 'output'], ['stdout', 'stdout'], ['stderr', 'stderr']]) {
      const text = m[key];
      if (!text) continue;
      const d = document.createElement('details');
      if (name !== 'game.out' || m.verdict !== 'ok') d.open = true;
      const s = document.createElement('summary');
      s.textContent = name + ' (' + (m.sizes[key] ?? text.length) + ' characters)';
      const pre = document.createElement('pre');
      pre.textContent = text;
      d.append(s, pre);
      out.appendChild(d);
    }
    $('result').hidden = at !== frames.length - 1;
  }
  function play() {
    if (timer) { clearInterval(timer); timer = null; $('play').textContent = '▶ play'; return; }
    if (at === frames.length - 1) show(0);
    $('play').textContent = '❚❚ pause';
    timer = setInterval(() => { show(at + 1); if (at >= frames.length - 1) play(); },
                        Number($('speed').value));
  }
  $('first').onclick = () => show(0);
  $('prev').onclick = () => show(at - 1);
  $('next').onclick = () => show(at + 1);
  $('last').onclick = () => show(frames.length - 1);
  $('play').onclick = play;
  $('speed').onchange = () => { if (timer) { play(); play(); } };
  slider.oninput = () => show(Number(slider.value));
  document.addEventListener('keydown', (e) => {
    if (e.target.tagName === 'INPUT' && e.target.type !== 'range') return;
    const keys = {ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: frames.length - 1};
    if (e.key in keys) { e.preventDefault(); show(keys[e.key]); }
    else if (e.key === ' ') { e.preventDefault(); play(); }
  });
  window.replay = {show: show, step: () => at, count: frames.length};
  function fromHash() {  // #end, or #N for step N
    const wanted = location.hash.slice(1);
    show(wanted === 'end' ? frames.length - 1 : Number(wanted) || 0);
  }
  window.addEventListener('hashchange', fromHash);
  window.addEventListener('resize', () => show(at));
  fromHash();
})();
"""


def page(title: str, body: str, *, extra_style: str = "", script: str = "", head: str = "") -> str:
    """A whole HTML document with the shared style (``head``: more of its head, as HTML)."""
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">{head}"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{html.escape(title)}</title><style>{STYLE}{extra_style}</style></head>"
            f"<body>{body}{script}</body></html>\n")


def seat_chips(seats: list[str], colours: tuple[str, ...] = SEAT_COLOURS) -> str:
    """The bots of a game, each in the colour its pieces are drawn in (one seat: plain)."""
    if len(seats) == 1:
        return f"<b>{html.escape(display(seats[0]))}</b>"
    return " vs ".join(f'<span class="chip" style="background:{colours[i]};color:{_ink(colours[i])};'
                       f'border:1px solid #888">{html.escape(display(name))}</span>' for i, name in enumerate(seats))


def _ink(fill: str) -> str:
    """Text that reads on a background of ``fill`` (#rrggbb): dark on light, white on dark."""
    r, g, b = (int(fill[k:k + 2], 16) for k in (1, 3, 5))
    return "#1d1d1f" if 0.299 * r + 0.587 * g + 0.114 * b > 160 else "#fff"


def replay_page(game: Replay, *, legend: str = "", back: str | None = None) -> str:
    """The replay of one game as a self-contained page."""
    record = game.record
    data = json_for_html(_replay_data(game))  # no '<', '>' or '&': nothing a bot printed can end the element
    back_link = f' · <a href="{html.escape(back)}">back to the report</a>' if back else ""
    body = f"""
<header><h1>{html.escape(display(record['id']))}</h1>
<div class="sub">{html.escape(record['game'])} · {seat_chips(record['seats'], game.colours)} ·
{html.escape(outcome_text(record))}{back_link}</div></header>
<main>
<div class="controls">
  <button id="first" title="first step (Home)">|◀</button><button id="prev" title="previous step (←)">◀</button>
  <button id="play" title="play / pause (space)">▶ play</button>
  <button id="next" title="next step (→)">▶</button><button id="last" title="last step (End)">▶|</button>
  <input id="slider" type="range" min="0" value="0" aria-label="step">
  <span id="counter"></span>
  <select id="speed" title="autoplay speed"><option value="1200">slow</option>
  <option value="500" selected>normal</option><option value="150">fast</option></select>
</div>
<div class="layout">
  <div><div class="boards" id="boards"></div><div class="legend">{html.escape(legend)}</div></div>
  <div class="panel">
    <div id="label"></div><div id="who"></div><div id="fault" hidden></div><ul id="notes"></ul>
    <div id="output"></div>
    <div class="result" id="result" hidden>Result: {html.escape(outcome_text(record))}</div>
    <div class="hint">← → step · Home End · space plays</div>
  </div>
</div>
</main>"""
    script = f'<script id="replay-data" type="application/json">{data}</script><script>{SCRIPT}</script>'
    return page(f"{display(record['id'])} – arena replay", body, extra_style=REPLAY_STYLE, script=script)


def _replay_data(game: Replay) -> dict[str, Any]:
    """Steps (grids as changes to the previous step's) and the invocations they belong to."""
    moves: list[dict[str, Any]] = []
    steps: list[dict[str, Any]] = []
    previous: list[dict[str, Any]] = []
    for step in game.steps:
        data = step.frame.to_json()
        # (a view's words may quote a bot's name: shown as the terminal shows them, step_text's _net)
        data["label"] = display(data["label"], backslash=False)
        data["notes"] = [display(note, backslash=False) for note in data["notes"]]
        for grid in data["grids"]:
            grid["title"] = display(grid["title"], backslash=False)
        if step.entry is not None:
            if step.first:
                moves.append({"number": step.move, "bot": display(step.bot or "?"), **_entry_fields(step.entry)})
            data["move"] = len(moves) - 1
        grids = data["grids"]
        data["grids"] = [_delta(g, previous[j] if j < len(previous) else None) for j, g in enumerate(grids)]
        previous = grids
        steps.append(data)
    plan = games.referee(game.record["game"]).protocol == "one-shot"
    return {"plan": plan, "moves": moves, "steps": steps, "first": game.steps[0].move if game.steps else 0}


def _entry_fields(entry: dict[str, Any]) -> dict[str, Any]:
    """What the page shows of an invocation: what the bot wrote as display text
    (its lines and tabs kept), with the length of what it wrote (``sizes``)."""
    keep = ("seat", "verdict", "cpu", "wall", "wait", "exit_code")
    fields = {key: entry[key] for key in keep if entry.get(key) is not None}
    if entry.get("message"):  # (the arena's words, quoting the bot with repr: nothing is escaped twice)
        fields["message"] = display(entry["message"], backslash=False)
    written = {key: entry[key] for key in ("output", "stdout", "stderr") if entry.get(key) is not None}
    fields.update({key: display(text, multiline=True) for key, text in written.items()})
    fields["sizes"] = {key: len(text) for key, text in written.items()}
    return fields


def _delta(grid: dict[str, Any], before: dict[str, Any] | None) -> dict[str, Any]:
    """A grid as the cells that differ from the same grid of the step before,
    when that is shorter."""
    if before is None or before["cols"] != grid["cols"] or len(before["cells"]) != len(grid["cells"]):
        return grid
    changed = [[k, cell] for k, (cell, old) in enumerate(zip(grid["cells"], before["cells"])) if cell != old]
    if len(changed) * 2 >= len(grid["cells"]):
        return grid
    return {"title": grid["title"], "d": changed}
