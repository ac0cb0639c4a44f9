// explore.js: the strategy explorer page (/explore). It asks the server's
// explorer API (server/explore.go) for the exact values of a rule set and
// draws them as SVG charts, each with a table view for screen readers.
// While the two-player table is being prepared it shows the progress and
// asks again.

import { msg, num, pct as pctOf, errText, lang, langSwitch } from './i18n.js';
import { choiceText, noteText, botLevel, solverWhy } from './words.js';

const NS = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const ui = { presets: [], table: null, timer: 0, palette: [], colors: {}, seq: 0, cmp: { seq: 0, timer: 0 } };

function el(tag, attrs = {}, ...kids) {
  const e = tag.startsWith('svg:') ? document.createElementNS(NS, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'style') e.style.cssText = v; // the CSSOM: the page's CSP refuses style attributes
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const k of kids.flat(Infinity)) if (k !== undefined && k !== null && k !== '') e.append(k instanceof Node ? k : String(k));
  return e;
}
const s = (tag, attrs, ...kids) => el('svg:' + tag, attrs, ...kids);

async function api(method, path, body) {
  const opt = { method, headers: {} };
  if (body !== undefined) { opt.headers['Content-Type'] = 'application/json'; opt.body = JSON.stringify(body); }
  const resp = await fetch(path, opt).catch(() => { throw new Error(msg('err.network')); }); // no answer at all: said in the page's language
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok) throw new Error(errText(data.code, data.field, data.error || msg('err.http', { status: resp.status })));
  return data;
}

const pct = (p) => pctOf(p, 2);
const phone = () => window.innerWidth < 600;

function compText(points, p) {
  if (points > 0) return msg('web.x.compOther', { n: num(points), p: pct(p) });
  if (points < 0) return msg('web.x.compMover', { n: num(-points), p: pct(p) });
  return msg('web.x.compEven', { p: pct(p) });
}

// rulesValue is the rules to send: a preset name, this table's rules, or
// the house rules typed in.
function rulesValue() {
  const v = $('rules').value;
  if (v === '@table') return ui.table;
  if (v === '@house') return JSON.parse($('house').value || '{}');
  return v;
}
function rulesLabel() { return $('rules').selectedOptions[0]?.textContent || ''; }

function position() {
  const throwText = $('throw').value.replace(/[^1-6]/g, '');
  return { me: +$('me').value || 0, them: +$('them').value || 0, turn: +$('turn').value || 0, dice: +$('dice').value || 0,
    my_streak: +$('my_streak').value || 0, their_streak: +$('their_streak').value || 0, throw: throwText ? [...throwText].map(Number) : undefined };
}

// stale greys the answers shown while the next is being asked for (on),
// or shows them as current (off).
function stale(ids, on) {
  for (const id of ids) {
    const e = $(id);
    e.classList.toggle('x-stale', on);
    if (on) e.setAttribute('aria-busy', 'true'); else e.removeAttribute('aria-busy');
  }
}
const mapCards = ['win-card', 'turn-card', 'bank-card', 'pos-card'];

function setStatus(text, prog) {
  $('status').textContent = text;
  $('status').title = text;
  const bar = $('progress');
  bar.style.visibility = prog ? '' : 'hidden';
  if (prog) { bar.max = prog.total || 1; bar.value = prog.done; }
}

// run asks for the maps and the position; while the duel table is being
// prepared it asks again every two seconds.
async function run() {
  clearTimeout(ui.timer);
  const seq = ++ui.seq; // an answer to an older question is dropped
  $('error').textContent = '';
  let rules;
  try { rules = rulesValue(); } catch (ex) { $('error').textContent = msg('web.x.badJSON') + ex.message; return; }
  const pos = position();
  const url = new URL(location.href);
  for (const k of ['me', 'them', 'turn', 'dice']) url.searchParams.set(k, pos[k]);
  if (typeof rules === 'string') url.searchParams.set('rules', rules);
  history.replaceState(null, '', url);
  stale(mapCards, true);
  if (!$('win-map').firstChild) keepPlaces(''); // the first question: the charts' places kept while it is answered
  try {
    const m = await api('POST', '/api/explore/map', { rules, me: pos.me, them: pos.them, cells: phone() ? 20 : 40, turn_max: turnMax, turn_step: phone() ? 100 : 0 });
    if (seq !== ui.seq) return;
    ui.palette = m.palette; ui.colors = m.colors;
    drawSolo(m.solo);
    if (m.duel.state === 'ready') {
      setStatus(msg('web.x.ready', { rules: m.rules }));
      drawWinMap(m.win_map, m.cell);
      drawTurnMap(m.turn_map);
      drawDuel(m.duel_thresholds);
    } else {
      const why = m.duel.state === 'preparing'
        ? msg('web.x.preparing', { rules: m.rules }) + (m.duel.progress ? msg('web.x.sweep', { sweep: m.duel.progress.sweep, done: num(m.duel.progress.done), total: num(m.duel.progress.total) }) : msg('web.x.queue', { queued: m.duel.queued, running: m.duel.running })) + '…'
        : msg('web.x.noDuel', { rules: m.rules, why: solverWhy(m.duel.reason) });
      setStatus(why, m.duel.state === 'preparing' ? (m.duel.progress || { done: 0, total: 0 }) : null);
      const waits = m.duel.state === 'preparing'; // else no chart comes: a line says why in its place
      if (waits) keepPlaces(msg('web.x.preparing', { rules: m.rules }) + '…', m.shape); // the progress is in the status above: two lines in the turn map's place on a phone
      for (const id of waits ? ['win-table', 'turn-table', 'duel-table'] : ['win-map', 'win-table', 'turn-map', 'turn-table', 'duel-chart', 'duel-table']) $(id).replaceChildren(el('p', { class: 'muted' }, why));
      if (!waits) $('cell').textContent = '';
      if (waits) ui.timer = setTimeout(run, 2000);
    }
    await drawPosition(rules, pos, seq);
  } catch (ex) {
    if (seq === ui.seq) { $('error').textContent = ex.message; dropPlaces(); }
  }
  if (seq === ui.seq) stale(mapCards, false);
}

// The charts' sizes: a heat map of cols x rows cells (heat), the lines
// charts (lines).
const heatBox = { cw: 12, ch: 12, left: 44, top: 6, bottom: 30, right: 4 };
const heatSize = (cols, rows) => [heatBox.left + cols * heatBox.cw + heatBox.right, heatBox.top + rows * heatBox.ch + heatBox.bottom];
const linesSize = [420, 250];
const turnMax = 3000; // the turn map's highest total

// keepPlaces keeps the places of the charts that come with the
// two-player table (before the first answer, and while the table is
// prepared) at their size, with why in them, and their legends' (unseen):
// the cards below do not jump when they come (a tap aimed there would land
// beside its aim). The maps' sizes and the duel chart's lines are the
// answer's shape while the table is prepared, before the first answer a
// guess (a unit of 50, six dice, to a target of 2,000 at least). The solo
// chart comes with every answer.
function keepPlaces(why, shape) {
  const cells = phone() ? 20 : 40;
  const s = shape || { win_scores: cells, turn_totals: turnMax / (phone() ? 100 : 50), dice: 6 };
  keepPlace('win-map', heatSize(s.win_scores, s.win_scores), why, false, legend());
  const pos = position(), sample = { me: num(pos.me), them: num(pos.them), p: pct(0.5), first: pct(0.5), fair: num(250) };
  $('cell').replaceChildren(unseen(el('span', {}, msg('web.x.cell', { ...sample, comp: compText(250, 0.5) })))); // the line the map's cell will have
  keepPlace('turn-map', heatSize(s.turn_totals, s.dice), why, false, turnLegend());
  const dice = Array.from({ length: s.dice }, (_, i) => ({ name: diceN(i + 1) }));
  keepPlace('duel-chart', linesSize, why, true, linesKey(dice), dashedNote());
  if (!$('solo-chart').firstChild) keepPlace('solo-chart', linesSize, '', true, linesKey([{ name: msg('web.x.onBoard') }]));
}

// dropPlaces empties the charts' places kept for an answer that did not
// come (an error: nothing will fill them).
function dropPlaces() {
  for (const id of ['win-map', 'turn-map', 'duel-chart', 'solo-chart']) if ($(id).querySelector('.x-wait')) $(id).replaceChildren();
  if ($('cell').querySelector('[aria-hidden]')) $('cell').replaceChildren();
}

// keepPlace fills the chart id with a box of the chart's size [w, h]
// (lines: at most a lines chart's width), and the lines that come below
// the chart, unseen.
function keepPlace(id, [w, h], why, lines, ...below) {
  $(id).replaceChildren(el('div', { class: lines ? 'x-wait x-lines' : 'x-wait', style: `aspect-ratio: ${w} / ${h}` }, why ? el('p', { class: 'muted' }, why) : ''), ...below.map(unseen));
}

// unseen keeps e's place on the page without showing it (or reading it).
function unseen(e) {
  e.style.visibility = 'hidden';
  e.setAttribute('aria-hidden', 'true');
  return e;
}

// heat draws a grid of rects: cells[r][c] = {fill, label, data}; rows
// from the top. Hovering a cell, or moving to it with the arrow keys once
// the chart has the focus, shows its label; a click or Enter picks it.
function heat(cols, rows, cells, xLabels, yLabels, title, onPick) {
  const { cw, ch, left, top } = heatBox;
  const [w, hgt] = heatSize(cols, rows);
  const g = s('svg', { viewBox: `0 0 ${w} ${hgt}`, role: 'img', 'aria-label': title + msg('web.x.arrows'), class: 'x-svg', tabindex: 0 });
  const rects = [];
  let at = [rows - 1, 0];
  const show = (r, c) => {
    const old = rects[at[0]]?.[at[1]];
    if (old) old.classList.remove('x-at');
    at = [r, c];
    rects[r][c].classList.add('x-at');
    $('cell').textContent = cells[r][c].label;
  };
  for (let r = 0; r < rows; r++) {
    rects.push([]);
    for (let c = 0; c < cols; c++) {
      const cell = cells[r][c];
      const rect = s('rect', { x: left + c * cw, y: top + r * ch, width: cw, height: ch, fill: cell.fill, class: 'x-cell', ...cell.data },
        s('title', {}, cell.label));
      rect.addEventListener('mouseenter', () => show(r, c));
      if (onPick) rect.addEventListener('click', () => onPick(cell));
      rects[r].push(rect);
      g.append(rect);
    }
  }
  g.addEventListener('keydown', (ev) => {
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[ev.key]) {
      ev.preventDefault();
      show(Math.max(0, Math.min(rows - 1, at[0] + moves[ev.key][0])), Math.max(0, Math.min(cols - 1, at[1] + moves[ev.key][1])));
    } else if (ev.key === 'Enter' && onPick) onPick(cells[at[0]][at[1]]);
  });
  xLabels.forEach(([i, t]) => g.append(s('text', { x: left + i * cw + cw / 2, y: top + rows * ch + 12, class: 'x-tick', 'text-anchor': 'middle' }, t)));
  yLabels.forEach(([i, t]) => g.append(s('text', { x: left - 4, y: top + i * ch + ch - 2, class: 'x-tick', 'text-anchor': 'end' }, t)));
  return g;
}

function every(n, k) { const out = []; for (let i = 0; i < n; i += k) out.push(i); return out; }

function drawWinMap(m, cell) {
  const n = m.scores.length;
  const cls = (p) => Math.max(0, Math.min(9, Math.floor(p * 10)));
  const cells = [];
  for (let r = 0; r < n; r++) {
    const i = n - 1 - r; // my score up
    cells.push(m.scores.map((them, j) => {
      const me = m.scores[i], p = m.win[i][j];
      return { fill: ui.palette[cls(p)], me, them,
        label: msg('web.x.cellLabel', { me: num(me), them: num(them), p: pct(p), comp: compText(m.comp[i][j], m.comp_win[i][j]) }),
        data: { 'data-me': me, 'data-them': them, 'data-p': p, 'data-comp': m.comp[i][j] } };
    }));
  }
  const step = Math.max(1, Math.round(n / 5));
  const g = heat(n, n, cells, every(n, step).map((j) => [j, num(m.scores[j])]), every(n, step).map((r) => [r, num(m.scores[n - 1 - r])]),
    msg('web.x.winTitle', { rules: m.rules }), (c) => { $('me').value = c.me; $('them').value = c.them; run(); });
  g.append(s('text', { x: 44 + n * 6, y: 6 + n * 12 + 26, class: 'x-axis', 'text-anchor': 'middle' }, msg('web.x.theirScore')));
  $('win-map').replaceChildren(g, legend());
  $('cell').textContent = cell ? msg('web.x.cell', { me: num(cell.me), them: num(cell.them), p: pct(cell.win), comp: compText(cell.comp, cell.comp_win), first: pct(m.first_player), fair: num(m.fair) }) : '';
  $('win-table').replaceChildren(gridTable(msg('web.x.myTheir'), m.scores.map(num), m.scores.map(num).reverse(),
    m.scores.map((_, r) => m.win[n - 1 - r].map((p) => pct(p)))));
}

function legend() {
  return el('p', { class: 'x-legend small' }, msg('web.x.losing'), ' ', ...(ui.palette || Array(10).fill('')).map((c, i) => el('span', { class: 'x-swatch', style: `background:${c}`, title: pctOf(i / 10, 0).replace(/^\d+/, `${i * 10}–${i * 10 + 10}`) })), ' ', msg('web.x.winning'));
}

function gridTable(corner, cols, rows, vals) {
  return el('table', { class: 'x-table' },
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, corner), cols.map((c) => el('th', { scope: 'col' }, c)))),
    el('tbody', {}, rows.map((r, i) => el('tr', {}, el('th', { scope: 'row' }, r), vals[i].map((v) => el('td', {}, v))))));
}

const decisionKeys = { bank: 'tui.btn.bank', throw: 'web.x.d.throw', 'bank only': 'web.x.d.bankOnly', 'throw only': 'web.x.d.throwOnly', none: 'web.x.d.none' };
const decisionText = Object.fromEntries(Object.entries(decisionKeys).map(([k, v]) => [k, msg(v)]));
const diceN = (n) => msg('web.x.diceN', { n });

function drawTurnMap(t) {
  const rows = t.dice.length, cols = t.totals.length;
  const fill = (d) => ui.colors[d] || ui.colors.other;
  const cells = [];
  for (let r = 0; r < rows; r++) {
    const d = rows - 1 - r;
    cells.push(t.cells[d].map((c, k) => ({ fill: fill(c.decision),
      label: msg('web.x.turnCell', { dice: diceN(t.dice[d]), total: num(t.totals[k]), d: decisionText[c.decision] }) + (c.margin > 0 ? msg('web.x.by', { p: pct(c.margin) }) : ''),
      data: { 'data-dice': t.dice[d], 'data-total': t.totals[k], 'data-decision': c.decision, 'data-margin': c.margin } })));
  }
  const g = heat(cols, rows, cells, every(cols, Math.max(1, Math.round(cols / 6))).map((k) => [k, num(t.totals[k])]),
    t.dice.map((n, d) => [rows - 1 - d, diceN(n)]), msg('web.x.turnTitle', { me: t.me, them: t.them }));
  $('turn-map').replaceChildren(g, turnLegend());
  $('turn-table').replaceChildren(gridTable(msg('web.x.diceTotal'), t.totals.map(num), t.dice.map(diceN),
    t.dice.map((_, d) => t.cells[d].map((c) => decisionText[c.decision] + (c.margin > 0 ? ` (+${pct(c.margin)})` : '')))));
}

function turnLegend() {
  const c = ui.colors || {};
  return el('p', { class: 'x-legend small' }, el('span', { class: 'x-swatch', style: `background:${c.bank}` }), ` ${decisionText.bank} `,
    el('span', { class: 'x-swatch', style: `background:${c.throw}` }), ` ${decisionText.throw} `, el('span', { class: 'x-swatch', style: `background:${c.other}` }), ` ${msg('web.x.oneChoice')}`);
}

const lineColors = ['#1b7837', '#762a83', '#e08214', '#2166ac', '#b2182b', '#4d4d4d', '#35978f', '#8c510a'];

// lines draws line series [{name, color, dash, points: [[x, y]]}].
function lines(series, xLabel, yLabel, title) {
  const [W, H] = linesSize, L = 48, R = 10, T = 22, B = 34;
  const pts = series.flatMap((x) => x.points);
  if (!pts.length) return el('p', { class: 'muted' }, msg('web.x.nothing'));
  let [x0, x1] = [Math.min(...pts.map((p) => p[0])), Math.max(...pts.map((p) => p[0]))];
  let [y0, y1] = [0, Math.max(...pts.map((p) => p[1]))];
  if (x0 === x1) x1 = x0 + 1;
  if (y1 === y0) y1 = y0 + 1;
  const X = (x) => L + (x - x0) / (x1 - x0) * (W - L - R), Y = (y) => H - B - (y - y0) / (y1 - y0) * (H - T - B);
  const g = s('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': title, class: 'x-svg x-lines' });
  g.append(s('line', { x1: L, y1: H - B, x2: W - R, y2: H - B, class: 'x-axisline' }), s('line', { x1: L, y1: T, x2: L, y2: H - B, class: 'x-axisline' }));
  // Ticks: every whole number on a short whole-number axis (dice), else
  // five across.
  const whole = pts.every((p) => Number.isInteger(p[0])) && x1 - x0 <= 10;
  const xs = whole ? Array.from({ length: x1 - x0 + 1 }, (_, i) => x0 + i) : [0, 1, 2, 3, 4].map((i) => x0 + (x1 - x0) * i / 4);
  for (let i = 0; i <= 4; i++) {
    const yv = y0 + (y1 - y0) * i / 4;
    g.append(s('text', { x: L - 4, y: Y(yv) + 3, class: 'x-tick', 'text-anchor': 'end' }, num(Math.round(yv * 1000) / 1000)));
  }
  for (const xv of xs) g.append(s('text', { x: X(xv), y: H - B + 12, class: 'x-tick', 'text-anchor': 'middle' }, num(Math.round(xv))));
  g.append(s('text', { x: (L + W) / 2, y: H - 4, class: 'x-axis', 'text-anchor': 'middle' }, xLabel));
  g.append(s('text', { x: 4, y: 10, class: 'x-axis' }, yLabel));
  for (const sr of series) {
    if (!sr.points.length) continue;
    g.append(s('polyline', { points: sr.points.map(([x, y]) => `${X(x)},${Y(y)}`).join(' '), fill: 'none', stroke: sr.color, 'stroke-width': 2, 'stroke-dasharray': sr.dash ? '5 4' : null }));
    for (const [x, y] of sr.points) g.append(s('circle', { cx: X(x), cy: Y(y), r: 2.5, fill: sr.color, 'data-x': x, 'data-y': y, 'data-series': sr.name }, s('title', {}, `${sr.name}: ${num(x)} → ${num(y)}`)));
  }
  return el('div', {}, g, linesKey(series));
}

function linesKey(series) {
  return el('p', { class: 'x-legend small' }, series.filter((x) => !x.dash).map((x) => [el('span', { class: 'x-swatch', style: `background:${x.color}` }), ' ' + x.name + ' ']));
}

const dashedNote = () => el('p', { class: 'small muted' }, msg('web.x.dashed'));

const never = (v, target) => v < 0 || v >= target;

function drawSolo(st) {
  const series = st.bank.map((row, i) => ({ name: st.penalty.count ? msg('web.x.behind', { n: i }) : msg('web.x.onBoard'), color: lineColors[i % 8],
    points: row.map((v, d) => [st.dice[d], v]).filter(([, v]) => !never(v, st.target)) }));
  (st.entry || []).forEach((row, i) => series.push({ name: msg('web.x.toGetOn', { n: i }), color: lineColors[(st.bank.length + i) % 8],
    points: row.map((v, d) => [st.dice[d], v]).filter(([, v]) => !never(v, st.target)) }));
  $('solo-chart').replaceChildren(lines(series, msg('cli.solve.diceToThrow'), msg('web.x.bankFrom'), msg('web.x.soloTitle', { rules: st.rules })));
  const rows = st.bank.map((_, i) => st.penalty.count ? msg('web.x.behind', { n: i }) : msg('web.x.onBoard'));
  const cell = (v) => never(v, st.target) ? msg('web.x.never') : num(v);
  const vals = st.bank.map((row) => row.map(cell));
  (st.entry || []).forEach((row, i) => { rows.push(msg('web.x.toGetOnMin', { min: num(st.entry_minimum), n: i })); vals.push(row.map(cell)); });
  $('solo-table').replaceChildren(el('p', { class: 'small' }, msg('web.x.perTurn', { n: num(Math.round(st.expected_turn * 10) / 10) })),
    gridTable('', st.dice.map(diceN), rows, vals));
}

function drawDuel(d) {
  const series = d.dice.map((n, i) => ({ name: diceN(n), color: lineColors[i % 8],
    points: d.them.map((o, k) => [o - d.me, d.bank[i][k]]).filter(([, v]) => v >= 0) }));
  d.solo.forEach((v, i) => { if (!never(v, d.target) && series[i].points.length) series.push({ name: msg('web.x.solo', { dice: diceN(d.dice[i]) }), color: lineColors[i % 8], dash: true, points: [[series[i].points[0][0], v], [series[i].points.at(-1)[0], v]] }); });
  $('duel-chart').replaceChildren(lines(series, msg('web.x.minus'), msg('web.x.bankFrom'), msg('web.x.duelTitle', { me: d.me })), dashedNote());
  $('duel-table').replaceChildren(gridTable(msg('web.x.theirDice'), d.dice.map(diceN), d.them.map(num),
    d.them.map((_, k) => d.dice.map((__, i) => { const v = d.bank[i][k]; if (v < 0) return msg('cli.explore.never'); const s0 = d.solo[i]; return num(v) + (s0 >= 0 && v !== s0 ? ` (${v > s0 ? '+' : ''}${num(v - s0)})` : ''); }))));
}

async function drawPosition(rules, pos, seq) {
  const box = $('position');
  try {
    const p = await api('POST', '/api/explore/position', { rules, ...pos });
    if (seq !== ui.seq) return;
    const win = p.measure === 'win probability';
    const fmtV = (v) => win ? msg('hint.toWin', { p: pct(v) }) : msg('web.x.points', { n: num(Math.round(v * 10) / 10) });
    const hi = Math.max(...p.options.map((o) => o.value), 1e-9);
    box.replaceChildren(
      p.note ? el('p', { class: 'muted small' }, noteText(p.note)) : '',
      p.farkle ? el('p', {}, msg('web.x.farkle')) : '',
      el('ol', { class: 'x-bars' }, p.options.map((o) => el('li', { class: o.best ? 'best' : '', 'data-value': o.value, 'data-text': o.text },
        el('span', { class: 'x-bar-label' }, choiceText(o.text) + (o.then ? msg('web.x.then', { then: choiceText(o.then) }) : '')),
        el('span', { class: 'x-bar', style: `width:${Math.max(1, 100 * o.value / hi)}%` }),
        el('span', { class: 'x-bar-value' }, fmtV(o.value) + (o.best ? msg('dragon.hint.best') : ` (−${win ? pct(o.loss) : num(Math.round(o.loss * 10) / 10)})`))))),
      p.bots.length ? el('table', { class: 'x-table x-bots' }, el('caption', {}, msg('web.x.bots')),
        el('tbody', {}, p.bots.map((b) => el('tr', { 'data-level': b.level }, el('th', { scope: 'row' }, botLevel(b.level)), el('td', {}, choiceText(b.choice) + (b.then ? msg('web.x.then', { then: choiceText(b.then) }) : '')))))) : '');
  } catch (ex) {
    if (seq === ui.seq) box.replaceChildren(el('p', { class: 'error' }, ex.message));
  }
}

// A comparison with a rule set whose two-player table is being prepared is
// asked again, after 2, 4, 8… seconds (at most 30 between), at most
// cmpTries times; then the page says so and Compare asks again.
const cmpTries = 8;
const cmpWait = (attempt) => Math.min(2000 * 2 ** attempt, 30000);

function compare(ev) {
  ev.preventDefault();
  const chosen = [...document.querySelectorAll('#compare-list input:checked')].map((i) => i.value === '@this' ? rulesValue() : i.value);
  if (chosen.length < 2 || chosen.length > 4) {
    clearTimeout(ui.cmp.timer); ui.cmp.seq++; // no answer under way is drawn now
    stale(['compare', 'compare-chart'], false);
    $('compare-note').replaceChildren(el('p', { class: 'error' }, msg('web.x.chooseSets')));
    return;
  }
  askCompare(chosen, 0);
}

// askCompare asks for the comparison of chosen (the attempt-th time in a
// row), greying the one shown meanwhile, and draws the answer unless a
// newer question was asked since.
async function askCompare(chosen, attempt) {
  clearTimeout(ui.cmp.timer);
  const seq = ++ui.cmp.seq;
  const note = $('compare-note');
  note.replaceChildren(el('p', { class: 'muted', id: 'compare-asking' }, msg('web.x.comparing')));
  stale(['compare', 'compare-chart'], true);
  let st;
  try {
    st = await api('POST', '/api/explore/compare', { rules: chosen });
  } catch (ex) {
    if (seq !== ui.cmp.seq) return;
    stale(['compare', 'compare-chart'], false);
    note.replaceChildren(el('p', { class: 'error' }, ex.message));
    return;
  }
  if (seq !== ui.cmp.seq) return;
  stale(['compare', 'compare-chart'], false);
  const waiting = st.filter((x) => x.duel_preparing).map((x) => x.name);
  note.replaceChildren();
  if (waiting.length && attempt + 1 < cmpTries) {
    const wait = cmpWait(attempt);
    note.replaceChildren(el('p', { class: 'muted small', id: 'compare-again', 'data-attempt': attempt + 1 }, msg('web.x.cmpAgain', { rules: waiting.join(', '), s: Math.round(wait / 1000) })));
    ui.cmp.timer = setTimeout(() => askCompare(chosen, attempt + 1), wait);
  } else if (waiting.length) {
    note.replaceChildren(el('p', { class: 'muted small', id: 'compare-again' }, msg('web.x.cmpGaveUp', { rules: waiting.join(', ') })));
  }
  drawCompare(st);
}

function drawCompare(st) {
  const out = $('compare');
  try {
    const names = st.map((x) => x.name);
    const rows = [], vals = [];
    const add = (label, f) => { rows.push(label); vals.push(st.map(f)); };
    st[0].dice.forEach((n, i) => add(msg('web.x.pFarkleN', { dice: diceN(n) }), (x) => pct(x.p_farkle[i])));
    st[0].dice.forEach((n, i) => add(msg('web.x.throwPointsN', { dice: diceN(n) }), (x) => num(Math.round(x.expected[i] * 10) / 10)));
    add(msg('web.x.ppt'), (x) => num(Math.round(x.points_per_turn * 10) / 10));
    st[0].dice.forEach((n, i) => add(msg('web.x.bankFromN', { dice: diceN(n) }), (x) => never(x.bank_at[i], x.target) ? msg('web.x.never') : num(x.bank_at[i])));
    const noDuel = (x) => x.duel_preparing ? msg('web.x.cmpPreparing') : '—';
    add(msg('web.x.pFirst'), (x) => x.duel ? pct(x.first_player) : noDuel(x));
    const why = (x) => x.duel_note ? solverWhy(x.duel_note) : '—';
    add(msg('cli.explore.cmp.fair'), (x) => x.duel ? msg('web.x.points', { n: num(x.fair) }) : x.duel_preparing ? noDuel(x) : why(x));
    add(msg('web.x.turnsEach'), (x) => x.games ? num(Math.round(x.mean_turns * 10) / 10) : '—');
    // Why a rule set's games were cut short or not played (the server's
    // bound on the turns it simulates).
    out.replaceChildren(gridTable('', names, rows, vals),
      ...st.filter((x) => x.sim_note).map((x) => el('p', { class: 'muted small sim-note' }, `${x.name}: ${x.sim_note}`)));
    const byDice = (value) => st.map((x, i) => ({ name: x.name, color: lineColors[i % 8],
      points: x.dice.map((n, d) => [n, value(x, d)]).filter(([, v]) => v !== null) }));
    $('compare-chart').replaceChildren(
      lines(byDice((x, d) => x.p_farkle[d]), msg('web.x.diceThrown'), msg('web.x.pFarkle'), msg('web.x.pFarkleTitle')),
      lines(byDice((x, d) => x.expected[d]), msg('web.x.diceThrown'), msg('web.x.throwPoints'), msg('web.x.throwPointsTitle')),
      lines(byDice((x, d) => never(x.bank_at[d], x.target) ? null : x.bank_at[d]), msg('cli.solve.diceToThrow'), msg('web.x.bankFrom'), msg('web.x.soloByDice')));
  } catch (ex) {
    out.replaceChildren(el('p', { class: 'error' }, ex.message));
  }
}

// published asks for the published numbers, and again every 3 s while the
// table they need is being prepared (at most 40 times).
async function published(attempt = 0) {
  try {
    const p = await api('GET', '/api/explore/published');
    $('published').replaceChildren(
      p.duel.state === 'ready' ? '' : el('p', { class: 'muted small' }, p.duel.state === 'preparing' ? msg('web.x.pubPreparing') : solverWhy(p.duel.reason)),
      el('div', { class: 'x-scroll' }, el('table', { class: 'x-table x-claims' }, el('thead', {}, el('tr', {}, ['web.x.result', 'web.x.source', 'setup.rules', 'web.x.published', 'web.x.ours', 'web.x.agrees'].map((x) => el('th', { scope: 'col' }, msg(x))))),
        el('tbody', {}, p.results.map((r) => el('tr', {}, el('td', {}, r.claim), el('td', {}, r.source), el('td', {}, r.rules), el('td', {}, r.published || '—'), el('td', {}, r.ours), el('td', {}, r.agrees || '—')))))));
    $('published').append(drawThree(p.three || []));
    const preparing = p.duel.state === 'preparing' || (p.three || []).some((g) => g.state === 'preparing');
    if (preparing && attempt < 40) setTimeout(() => published(attempt + 1), 3000);
  } catch (ex) {
    $('published').replaceChildren(el('p', { class: 'error' }, ex.message));
  }
}

// drawThree is the published three-player games, each as its table
// stands: its figures once at hand, "being prepared" with the solve's
// progress, or why the server has none.
function drawThree(games) {
  const pcts = (p) => p.map((x) => pct(x)).join(' / ');
  const row = (g) => {
    const name = el('th', { scope: 'row' }, msg('web.x.threeGameVal', { rules: g.rules, target: num(g.target) }));
    if (g.state !== 'ready') {
      const why = g.why ? msg(g.why.key, g.why.args || {}) : '';
      return el('tr', { 'data-state': g.state, 'data-rules': g.rules, 'data-target': g.target }, name,
        el('td', { colspan: 3, class: 'x-wrap' }, why, g.state === 'preparing' ? el('progress', { max: 100, value: g.percent || 0 }) : ''));
    }
    const r = g.result;
    const fair = r.fair[1] || r.fair[2] ? msg('web.x.threeFairVal', { p2: num(r.fair[1]), p3: num(r.fair[2]), p: pcts(r.fair_wins) }) : msg('web.x.threeFairNone', { p: pcts(r.fair_wins) });
    return el('tr', { 'data-state': g.state, 'data-rules': g.rules, 'data-target': g.target, 'data-start': r.start.join(' ') }, name,
      el('td', { 'data-label': msg('web.x.threeStart') }, pcts(r.start)),
      el('td', { 'data-label': msg('web.x.threeOrbits') }, msg('web.x.threeOrbitsVal', { n: num(r.orbits), mixed: num(r.mixed), regret: r.regret.toPrecision(1) })),
      el('td', { 'data-label': msg('web.x.threeFair') }, fair));
  };
  return el('div', { id: 'three' }, el('h3', {}, msg('web.x.threeH')), el('p', { class: 'muted small' }, msg('web.x.threeP')),
    el('table', { class: 'x-table x-three' }, el('thead', {}, el('tr', {}, ['web.x.threeGame', 'web.x.threeStart', 'web.x.threeOrbits', 'web.x.threeFair'].map((x) => el('th', { scope: 'col' }, msg(x))))),
      el('tbody', {}, games.map(row))));
}

async function init() {
  document.documentElement.lang = lang;
  for (const e of document.querySelectorAll('[data-msg]')) e.textContent = msg(e.dataset.msg);
  for (const e of document.querySelectorAll('[data-msg-label]')) e.title = e.ariaLabel = msg(e.dataset.msgLabel);
  $('lang-switch').replaceChildren(langSwitch());
  // the published numbers need nothing below: the button answers from
  // the first moment, not only once the presets have come
  $('published-go').addEventListener('click', (ev) => { ev.target.hidden = true; published(0); });
  for (const k of ['me', 'them', 'turn', 'dice', 'my_streak', 'their_streak']) if (params.has(k)) $(k).value = params.get(k);
  if (params.has('throw')) $('throw').value = params.get('throw');
  const sel = $('rules');
  try { ui.presets = await api('GET', '/api/presets'); } catch (ex) { $('error').textContent = ex.message; }
  for (const p of ui.presets) sel.append(el('option', { value: p.name }, p.name));
  if (params.has('table')) {
    try {
      const t = await api('GET', `/api/tables/${encodeURIComponent(params.get('table'))}`);
      if (t.rules && typeof t.rules === 'object' && !t.kind) { ui.table = t.rules; sel.append(el('option', { value: '@table' }, msg('web.x.tableRules', { name: t.rules.name || msg('web.houseRules') }))); }
    } catch (ex) { $('error').textContent = msg('web.x.thatTable') + ex.message; }
  }
  sel.append(el('option', { value: '@house' }, msg('web.x.houseOption')));
  sel.value = ui.table ? '@table' : params.has('house') ? '@house' : (params.get('rules') || 'classic');
  if (!sel.value) sel.value = 'classic';
  if (params.has('house')) $('house').value = params.get('house');
  const house = document.querySelector('.x-house');
  const syncHouse = () => {
    house.hidden = sel.value !== '@house';
    if (!house.hidden && !$('house').value) {
      const base = ui.presets.find((p) => p.name === 'classic');
      if (base) $('house').value = JSON.stringify({ ...base.rules, name: 'house' }, null, 1);
    }
  };
  sel.addEventListener('change', syncHouse);
  syncHouse();
  $('setup').addEventListener('submit', (ev) => { ev.preventDefault(); run(); });
  $('compare-list').replaceChildren(el('label', { class: 'field check' }, el('input', { type: 'checkbox', value: '@this', checked: true }), msg('web.x.rulesAbove')),
    ...ui.presets.map((p) => el('label', { class: 'field check' }, el('input', { type: 'checkbox', value: p.name }), p.name)));
  $('compare-form').addEventListener('submit', compare);
  await run();
}

// The page is shown once its words and form are in and the first answer
// (or its error) is drawn, style.css's 1.5 s at most (html.ready): the
// position's choices and the solo table below the chart come with it and
// have no place kept, so drawn later they pushed every card below them
// down by 140 to 250 px, under a tap aimed there (the published numbers'
// button).
init().finally(() => document.documentElement.classList.add('ready'));
