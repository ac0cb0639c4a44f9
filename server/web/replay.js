// replay.js: a finished game step by step.
import { h, api, drawer, nameEl } from './ui.js';
import { diceRow, diceMarked } from './dice.js';
import { turnLabels } from './turns.js';
import { msg, num, lang } from './i18n.js';
import { tournamentLink } from './tourlink.js';

// replayKinds reads a replay's steps for each kind of game: the game after
// a step, a player's score, the seat to act and the points at stake in the
// turn. The lines of the log are the server's descriptions of the events.
const replayKinds = {
  farkle: { state: (s) => s.state, score: (p) => p.score, actor: (st) => st.actor, heads: ['web.rp.score', 'web.rp.turnTotal'],
    atStake: (st, k) => st.current === k && st.phase === 'play' ? num(st.total) : '',
    // A keep shows the throw it was kept from, the dice kept marked.
    dice: (st, step) => step && step.action.type === 'keep' && st.throw && st.throw.length ?
      [diceMarked(st.throw, step.action.dice), h('span', { class: 'kept-note' }, msg('web.rp.kept'), ' ', diceRow(step.action.dice))] : null },
  dragon: { state: (s) => s.dragon, score: (p) => p.soldiers, actor: (st) => (st.to_act ?? st.turn), heads: ['web.rp.soldiers', 'web.rp.pool'],
    atStake: (st, k) => st.turn === k && st.phase !== 'over' ? num(st.pool) : '', dice: () => null },
};

export async function replayPage(id) {
  const draw = drawer();
  const r = await api('GET', `/api/tables/${id}/replay?lang=${lang}`);
  const kind = r.table.kind || 'farkle';
  const rk = replayKinds[kind];
  const names = r.table.seats.map((s) => s.name);
  const turns = turnLabels(r);
  // ?action=N opens the replay at the N-th action (from 1, as the analysis
  // numbers its moments); else at the end.
  const q = new URLSearchParams(location.search), n = Number(q.get('action'));
  let i = q.has('action') && Number.isInteger(n) ? Math.max(-1, Math.min(r.steps.length - 1, n - 1)) : r.steps.length - 1;
  const board = h('div', { class: 'replay-board' });
  const slider = h('input', { type: 'range', min: '-1', max: String(r.steps.length - 1), value: String(i), 'aria-label': msg('web.rp.action') });
  const show = () => {
    const st = i < 0 ? r.start : rk.state(r.steps[i]);
    const lines = i < 0 ? [] : r.steps[i].log;
    const marked = i < 0 ? null : rk.dice(st, r.steps[i]);
    board.replaceChildren(
      h('p', { class: 'muted', id: 'replay-at' }, i < 0 ? msg('web.rp.before', { n: r.steps.length }) : `${turns[i] ? turns[i][0].toUpperCase() + turns[i].slice(1) + ' · ' : ''}${msg('web.rp.at', { i: i + 1, n: r.steps.length })}`),
      h('div', { class: 'throw-area replay-dice' }, marked || [st && st.throw && st.throw.length ? diceRow(st.throw, 'mid') : h('span', { class: 'muted' }, msg(i < 0 ? 'web.rp.starts' : 'web.rp.noDice')),
        st && st.kept && st.kept.length ? h('span', { class: 'muted' }, ' ', msg('web.rp.kept'), ' ', diceRow(st.kept)) : '']),
      h('ul', { class: 'log' }, lines.map((l) => h('li', {}, l.text))),
      h('table', { class: 'stats' }, h('thead', {}, h('tr', {}, h('th', {}, msg('web.player')), rk.heads.map((x) => h('th', { class: 'num' }, msg(x))))),
        h('tbody', {}, (st ? st.players : []).map((p, k) => h('tr', { class: rk.actor(st) === k ? 'turn' : '' },
          h('td', {}, nameEl(names[k]), (st.winners || []).includes(k) ? h('span', { class: 'tag win' }, msg('tag.winner')) : ''),
          h('td', { class: 'num' }, num(rk.score(p))), h('td', { class: 'num' }, rk.atStake(st, k)))))));
    slider.value = String(i);
  };
  slider.addEventListener('input', () => { i = Number(slider.value); show(); });
  const step = (d) => { i = Math.max(-1, Math.min(r.steps.length - 1, i + d)); show(); };
  draw(h('h1', {}, msg('web.rp.title', { names: names.join(msg('web.vs')) })), tournamentLink(r.table),
    h('div', { class: 'replay-controls' },
      h('button', { onclick: () => step(-1000) }, msg('web.rp.first')), h('button', { onclick: () => step(-1) }, msg('web.rp.back')),
      slider, h('button', { onclick: () => step(1) }, msg('web.rp.next')), h('button', { onclick: () => step(1000) }, msg('web.rp.last'))),
    board,
    h('p', {}, h('a', { class: 'button', href: `/api/tables/${id}/record`, download: `${kind}-${id}.json` }, msg('end.download')), ' ',
      r.table.seed ? h('span', { class: 'muted small mono' }, msg('web.seed'), ' ', h('span', { class: 'wrap' }, r.table.seed)) : ''));
  show();
  document.addEventListener('keydown', function onKey(e) {
    if (!document.body.contains(board)) { document.removeEventListener('keydown', onKey); return; }
    if (e.key === 'ArrowLeft') step(-1);
    if (e.key === 'ArrowRight') step(1);
  });
}
