// app.js: the pages of the Farkle web game (no build step; ES modules).
import { dieSVG, diceRow, diceMarked } from './dice.js';
import { turnLabels } from './turns.js';
import { msg, num, dec, pct, lang, languages, setLang, errText } from './i18n.js';
import { tablePage } from './table.js';
import { newTablePage, botDescription } from './rulesform.js';
import { dragonPage } from './dragon.js';
import { ratingBoard, ratingSection } from './rating.js';
import { accountPage, signInPage } from './account.js';
import { myGames, startTitleCount } from './pace.js';
import { tournamentsPage, tournamentPage } from './tournament.js';
import { localPage, syncUploads } from './local.js';
import './pwa.js';

// h builds an element: h('p', {class: 'x'}, 'text', child...). Text is
// always set as text, never as HTML, so names are escaped everywhere.
export function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v == null) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const k of kids.flat()) {
    if (k == null || k === false) continue;
    el.appendChild(typeof k === 'string' || typeof k === 'number' ? document.createTextNode(String(k)) : k);
  }
  return el;
}

// api calls the REST API and throws an Error carrying the server's message
// and field. Every request but a GET says it is JSON: the server refuses a
// POST that does not.
export async function api(method, path, body) {
  const opt = { method, headers: {} };
  if (method !== 'GET') opt.headers['Content-Type'] = 'application/json';
  if (body !== undefined) opt.body = JSON.stringify(body);
  const resp = await fetch(path, opt);
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok) {
    const err = new Error(errText(data.code, data.field, data.error || msg('err.http', { status: resp.status })));
    err.serverText = data.error;
    err.field = data.field; err.status = resp.status; err.code = data.code;
    throw err;
  }
  return data;
}

export const state = { me: null };

// nameEl shows a player's name on one line, clipped to its box: however
// long, or however many marks a character carries, it never runs over the
// lines around it.
export function nameEl(name, tag = 'span') {
  return h(tag, { class: 'name', title: name }, name);
}

// rulesName is the name a rule set is shown by: house rules have one even
// when nobody gave them a name.
export function rulesName(r) {
  return (r && r.name) || msg('web.houseRules');
}

// loadMe reads the browser's guest: /api/me answers null (200) when there
// is none yet.
export async function loadMe() {
  try { state.me = await api('GET', '/api/me'); } catch { state.me = null; }
  const span = document.getElementById('me');
  span.replaceChildren(...(state.me ? [h('a', { href: `/players/${encodeURIComponent(state.me.id)}` }, nameEl(state.me.name)), ' ',
    h('a', { href: '/account', id: 'account-link', class: 'small' }, msg(state.me.account ? 'web.account' : 'web.keepPlayer')), ' ',
    h('button', { id: 'sign-out', class: 'small', type: 'button', onclick: signOut }, msg('me.signout'))] : [h('a', { href: '/signin', id: 'signin-link' }, msg('web.signin'))]));
  return state.me;
}

// signOut makes the browser forget its guest, after asking: the cookie is
// the only key to that player, its seats and its stats.
async function signOut() {
  if (!state.me) return;
  if (!state.me.account && !confirm(msg('web.signoutAsk', { name: state.me.name }))) return;
  await api('POST', '/api/signout');
  await loadMe();
  route();
}

// ensurePlayer makes sure the browser has a guest, named name if it has
// none yet. An existing guest is kept whatever the name field says (the
// field shows it, read-only): only "Sign out" leaves it.
export async function ensurePlayer(name) {
  if (state.me) return state.me;
  try {
    await api('POST', '/api/players', { name: name || randomName() });
  } catch (ex) {
    if (ex.status !== 409) throw ex; // 409: this browser has a guest already (signed in from another tab)
  }
  return loadMe();
}

function randomName() {
  return msg('web.guest', { n: Math.floor(100 + Math.random() * 900) });
}

export function go(path) {
  history.pushState(null, '', path);
  route();
}

const main = () => document.getElementById('main');

export function page(...kids) {
  const m = main();
  m.replaceChildren(...kids);
  m.focus({ preventScroll: true });
}


// nameField is the display-name input shared by the home and join forms.
// Once the browser has a guest the field shows its name, read-only.
export function nameField(id) {
  return h('label', { class: 'field' }, msg('home.name'),
    h('input', { id, name: 'name', maxlength: '24', autocomplete: 'nickname', placeholder: msg('web.guestWord'), value: state.me ? state.me.name : '',
      readonly: !!state.me, title: state.me ? msg('web.nameFixed') : false }));
}

function home() {
  const err = h('p', { class: 'error', role: 'alert' });
  const play = h('button', { id: 'play-now', class: 'big primary', type: 'submit' }, msg('home.play'));
  const form = h('form', { class: 'card hero-form', onsubmit: async (e) => {
    e.preventDefault();
    play.disabled = true;
    try {
      await ensurePlayer(document.getElementById('name').value.trim());
      const t = await api('POST', '/api/tables', { seats: [{ type: 'me' }, { type: 'bot', level: document.getElementById('level').value }] });
      go(`/t/${t.id}`);
    } catch (ex) { err.textContent = ex.message; play.disabled = false; }
  } },
  nameField('name'),
  h('label', { class: 'field' }, msg('home.opponent'), h('select', { id: 'level' }), h('span', { id: 'level-desc', class: 'muted level-desc' })),
  play, err);
  api('GET', '/api/bots').catch(() => []).then((bots) => {
    const sel = document.getElementById('level');
    for (const b of bots) sel.appendChild(h('option', { value: b.name, selected: b.name === 'steady', title: botDescription(b) }, b.name));
    const desc = () => {
      const b = bots.find((x) => x.name === sel.value);
      let d = b ? botDescription(b) : '';
      if (sel.value === 'perfect') d += msg('web.perfectWait');
      document.getElementById('level-desc').textContent = d;
    };
    sel.addEventListener('change', desc);
    desc();
  });
  const hero = h('section', { class: 'hero' },
    h('div', { class: 'hero-dice' }, [1, 5, 3, 1, 6, 5].map((f) => dieSVG(f))),
    h('h1', {}, 'Farkle'),
    h('p', { class: 'lead' }, msg('home.lead')),
    form,
    h('p', { class: 'links' },
      h('a', { href: '/new', class: 'button' }, msg('home.friends')), ' ',
      h('a', { href: '/lobby', class: 'button' }, msg('home.join')),
      h('button', { id: 'play-dragon', class: 'button dragon-btn', onclick: async (e) => {
        e.target.disabled = true;
        try {
          await ensurePlayer(document.getElementById('name').value.trim());
          const t = await api('POST', '/api/tables', { rules: 'dragon', seats: [{ type: 'me' }, { type: 'bot', level: 'smart' }] });
          go(`/t/${t.id}`);
        } catch (ex) { err.textContent = ex.message; e.target.disabled = false; }
      } }, msg('home.dragon'))));
  const mine = h('div', { id: 'my-games' });
  // Games on this device work offline (local.js): first when offline.
  const local = h('section', { class: 'card local-card', id: 'local-card' },
    h('h2', {}, msg('web.local.title')), h('p', { class: 'muted' }, msg('web.local.lead')),
    h('a', { class: 'button primary big', id: 'play-local', href: '/local' }, msg('web.local.play')));
  page(...(navigator.onLine ? [mine, hero, local] : [local]));
  if (state.me) myGames(mine);
}

function tableList(tables, empty, action) {
  if (!tables.length) return h('p', { class: 'muted' }, empty);
  return h('ul', { class: 'tables' }, tables.map((t) => h('li', { class: 'card row' },
    h('div', { class: 'grow' },
      h('strong', { class: 'seats-line' }, t.seats.flatMap((s, i) => [i ? msg('web.vs') : '', s.free ? msg('web.freeSeat') : nameEl(s.name)])),
      h('div', { class: 'muted small' }, t.kind === 'dragon' ? `Dragon Farkle · ${msg('web.actions', { n: t.actions })}` : `${rulesName(t.rules)} · ${msg('web.to', { n: num(t.rules.game.target) })} · ${msg('web.actions', { n: t.actions })}`,
        t.scores ? ` · ${t.scores.map(num).join('–')}` : '',
        (t.winners || []).length ? ` · ${msg('web.wonBy', { names: t.winners.map((w) => t.seats[w].name).join(msg('end.and')) })}` : '',
        t.clock ? ` · ${msg('web.toAct', { n: t.clock.seconds })}` : ''),
      t.reason ? h('div', { class: 'reason small' }, msg(t.status === 'expired' ? 'web.reasonExpired' : 'web.reasonFailed', { why: t.reason })) : ''),
    action(t))));
}

async function lobby() {
  page(h('h1', {}, msg('nav.lobby')), h('p', { class: 'muted' }, msg('web.loading')));
  const [waiting, playing, failed] = await Promise.all([api('GET', '/api/tables?status=waiting'), api('GET', '/api/tables?status=playing'),
    api('GET', '/api/tables?status=failed&limit=10')]);
  page(h('h1', {}, msg('nav.lobby')),
    h('h2', {}, msg('wait.title')),
    tableList(waiting, msg('lobby.none'), (t) => h('a', { class: 'button primary', href: `/t/${t.id}` }, msg('lobby.join'))),
    h('h2', {}, msg('lobby.playing')),
    tableList(playing, msg('lobby.noGame'), (t) => h('a', { class: 'button', href: `/t/${t.id}` }, msg('lobby.watch'))),
    failed.length ? h('h2', {}, msg('web.stoppedByServer')) : '',
    failed.length ? tableList(failed, '', (t) => h('a', { class: 'button', href: `/api/tables/${t.id}/record`, download: `farkle-${t.id}.json` }, msg('web.record'))) : '',
    h('p', {}, h('a', { class: 'button primary', href: '/new' }, msg('lobby.create'))));
}

async function historyPage() {
  const over = await api('GET', '/api/tables?status=over');
  page(h('h1', {}, msg('history.title')),
    tableList(over, msg('none.finished'), (t) => h('span', { class: 'actions' },
      h('a', { class: 'button', href: `/replay/${t.id}` }, msg('end.replay')),
      h('a', { class: 'button', href: `/api/tables/${t.id}/record`, download: `${t.kind || 'farkle'}-${t.id}.json` }, msg('web.record')))));
}

function statsTable(rows) {
  return h('table', { class: 'stats leaderboard' },
    h('thead', {}, h('tr', {}, ['#', msg('web.player'), msg('web.st.games'), msg('web.st.wins'), msg('web.st.winRate'), msg('web.st.ppt'), msg('web.st.farkleRate'), msg('web.st.bestTurn')].map((x) => h('th', {}, x)))),
    h('tbody', {}, rows.map((r, i) => h('tr', {},
      h('td', {}, i + 1),
      h('td', { class: 'player' }, r.player.startsWith('bot:') ? nameEl(r.name) : h('a', { href: `/players/${encodeURIComponent(r.player)}` }, nameEl(r.name))),
      h('td', {}, num(r.games)), h('td', {}, num(r.wins)), h('td', {}, pct(r.win_rate)),
      h('td', {}, num(Math.round(r.points_per_turn))), h('td', {}, pct(r.farkle_rate)), h('td', {}, num(r.best_turn))))));
}

async function leaderboard() {
  const rows = await api('GET', '/api/leaderboard');
  page(h('h1', {}, msg('nav.leaderboard')), await ratingBoard(), h('h2', {}, msg('web.st.wins')), rows.length ? statsTable(rows) : h('p', { class: 'muted' }, msg('none.finished')));
}

async function playerPage(id) {
  const s = await api('GET', `/api/players/${encodeURIComponent(id)}/stats`);
  page(h('h1', {}, s.name || msg('web.player')),
    h('div', { class: 'tiles' },
      [[msg('web.st.games'), num(s.games)], [msg('web.st.wins'), num(s.wins)], [msg('web.st.winRate'), pct(s.win_rate)], [msg('web.st.ppt'), num(Math.round(s.points_per_turn))],
        [msg('web.st.farkleRate'), pct(s.farkle_rate)], [msg('web.st.bestTurn'), num(s.best_turn)]].map(([k, v]) => h('div', { class: 'tile' }, h('div', { class: 'tile-v' }, v), h('div', { class: 'muted small' }, k)))),
    h('h2', {}, msg('web.ratings')), await ratingSection(id),
    h('h2', {}, msg('web.st.games')),
    tableList(s.history, msg('none.finished'), (t) => h('a', { class: 'button', href: `/replay/${t.id}` }, msg('end.replay'))));
}

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

async function replayPage(id) {
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
  page(h('h1', {}, msg('web.rp.title', { names: names.join(msg('web.vs')) })),
    h('div', { class: 'replay-controls' },
      h('button', { onclick: () => step(-1000) }, msg('web.rp.first')), h('button', { onclick: () => step(-1) }, msg('web.rp.back')),
      slider, h('button', { onclick: () => step(1) }, msg('web.rp.next')), h('button', { onclick: () => step(1000) }, msg('web.rp.last'))),
    board,
    h('p', {}, h('a', { class: 'button', href: `/api/tables/${id}/record`, download: `${kind}-${id}.json` }, msg('end.download')), ' ',
      r.table.seed ? h('span', { class: 'muted small mono' }, msg('web.seed'), ' ', r.table.seed) : ''));
  show();
  document.addEventListener('keydown', function onKey(e) {
    if (!document.body.contains(board)) { document.removeEventListener('keydown', onKey); return; }
    if (e.key === 'ArrowLeft') step(-1);
    if (e.key === 'ArrowRight') step(1);
  });
}

let cleanup = null;

export async function route() {
  if (cleanup) { cleanup(); cleanup = null; }
  const p = location.pathname;
  let m;
  try {
    if (p === '/') home();
    else if (p === '/new') newTablePage();
    else if (p === '/lobby') await lobby();
    else if (p === '/history') await historyPage();
    else if (p === '/leaderboard') await leaderboard();
    else if (p === '/account') await accountPage();
    else if (p === '/signin') signInPage();
    else if (p === '/local') cleanup = await localPage();
    else if (p === '/tournaments') await tournamentsPage();
    else if ((m = p.match(/^\/tournaments\/([\w-]+)$/))) cleanup = await tournamentPage(m[1]);
    else if ((m = p.match(/^\/t\/([\w-]+)$/))) {
      const t = await api('GET', `/api/tables/${m[1]}`);
      cleanup = t.kind === 'dragon' ? dragonPage(m[1]) : tablePage(m[1]);
    }
    else if ((m = p.match(/^\/replay\/([\w-]+)$/))) await replayPage(m[1]);
    else if ((m = p.match(/^\/players\/([\w-]+)$/))) await playerPage(m[1]);
    else page(h('h1', {}, msg('web.notFound')), h('p', {}, h('a', { href: '/' }, msg('web.home'))));
  } catch (ex) {
    page(h('h1', {}, msg('web.wrong')), h('p', { class: 'error' }, ex.message));
  }
}

document.addEventListener('click', (e) => {
  const a = e.target.closest('a');
  if (!a || a.target || a.hasAttribute('download') || e.ctrlKey || e.metaKey || e.shiftKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith('/api/') || url.pathname.startsWith('/static/')) return;
  e.preventDefault();
  go(url.pathname + url.search);
});
window.addEventListener('popstate', route);

// The page's own texts in its language, and the switch between languages.
function localize() {
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll('[data-msg]')) el.textContent = msg(el.dataset.msg);
  const sel = h('select', { id: 'lang', 'aria-label': msg('lang.label'), onchange: (e) => setLang(e.target.value) },
    Object.entries(languages).map(([code, name]) => h('option', { value: code, selected: code === lang, title: name }, code.toUpperCase())));
  document.getElementById('lang-switch').replaceChildren(sel);
}

localize();
loadMe().then(() => { route(); startTitleCount(); syncUploads(); });
