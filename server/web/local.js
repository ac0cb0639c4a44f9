// local.js: games on this device (/local), with no server: against bots,
// or friends passing one phone around (hot seat). They play on the game's
// own engine compiled to WebAssembly (engine.js), so they work offline once
// the page has been opened online (the service worker keeps it: sw.js).
//
// The game in progress is kept in this browser (localStorage) after every
// action: its record so far and, apart, its secret seed, which the record
// commits to and reveals only at the end, as the server's tables do. So a
// closed tab or a phone that restarts finds the game where it was. A
// finished game goes to the local history and, when the network is there
// and the browser has a player, to the player's history on the server
// (POST /api/local-games), which verifies its record before keeping it.
import { h, api, drawer, state, ensurePlayer, loadMe, rulesName, nameEl } from './ui.js';
import { tablePage } from './table.js';
import { loadEngine } from './engine.js';
import { feelSettings } from './feel.js';
import { msg, num, lang, date } from './i18n.js';
import { botName, botLevel } from './words.js';
import { botDescription } from './rulesform.js';

const CURRENT = 'farkle.local.current';
const HISTORY = 'farkle.local.history';
const SETUP = 'farkle.local.setup';
const MAX_HISTORY = 50;
const BOT_DELAY = 650; // ms before a bot acts, so people can follow

function read(key, dflt) {
  try { return JSON.parse(localStorage.getItem(key)) ?? dflt; } catch { return dflt; }
}
function write(key, v) {
  try {
    if (v === null) localStorage.removeItem(key); else localStorage.setItem(key, JSON.stringify(v));
  } catch { /* storage full or off: the game goes on, unsaved */ }
}

// history is the finished local games, latest first: {id, record, you,
// ended, kept (the server's table ID once uploaded), error}.
export function localHistory() { return read(HISTORY, []); }
function saveHistory(list) {
  // The oldest games already kept on the server go first when full.
  while (list.length > MAX_HISTORY) {
    const i = list.findLastIndex((x) => x.kept);
    list.splice(i >= 0 ? i : list.length - 1, 1);
  }
  write(HISTORY, list);
}

function randomSeed() {
  const b = new Uint8Array(32);
  crypto.getRandomValues(b);
  return [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
}

// upload keeps a finished local game in the player's history on the
// server; without a player it waits (the page offers to make one).
async function upload(entry) {
  if (!state.me || entry.kept || entry.error) return entry;
  try {
    const t = await api('POST', '/api/local-games', { record: JSON.parse(entry.record), seat: entry.you });
    entry.kept = t.id;
  } catch (ex) {
    if (ex.status && ex.status !== 429 && ex.status < 500) entry.error = ex.message; // refused for good; a network failure is tried again
  }
  return entry;
}

// syncUploads uploads every finished game not yet kept, one at a time.
let syncing = null;
export function syncUploads() {
  if (syncing || !navigator.onLine) return syncing || Promise.resolve();
  syncing = (async () => {
    const list = localHistory();
    for (const e of list) {
      if (e.kept || e.error) continue;
      await upload(e);
      const now = localHistory();
      const i = now.findIndex((x) => x.id === e.id);
      if (i >= 0) { now[i] = e; saveHistory(now); }
    }
  })().finally(() => { syncing = null; changed(); });
  return syncing;
}
// A page opened offline could not ask who its player is: it asks when the
// network is back, then keeps the games waiting.
window.addEventListener('online', async () => {
  if (!state.me) await loadMe();
  changed();
  syncUploads();
});
window.addEventListener('offline', () => changed());

// changed tells what shows the local history that it may have changed.
function changed() { window.dispatchEvent(new Event('farkle-local-kept')); }

// onChange calls draw whenever the history may have changed, while el is
// on the page.
function onChange(el, draw) {
  window.addEventListener('farkle-local-kept', function again() {
    if (!el.isConnected) { window.removeEventListener('farkle-local-kept', again); return; }
    draw();
  });
}

// finish moves the game just over to the history.
function finish(eng, gid, cur) {
  eng.setEnded(gid, new Date().toISOString().replace(/\.\d+Z$/, 'Z'));
  const record = eng.record(gid);
  const id = JSON.parse(record).commitment;
  const list = localHistory().filter((x) => x.id !== id);
  list.unshift({ id, record, you: cur.you, ended: new Date().toISOString() });
  saveHistory(list);
  write(CURRENT, null);
  return Promise.resolve(syncUploads());
}

// connector plays local game gid as if it were a server's table: it
// answers the page's messages (table.js sends them as to the WebSocket)
// with the engine's, plays the bots' moves after a pause, and keeps the
// game in this browser after every action.
function connector(eng, gid, cur) {
  const people = cur.seats.map((s, i) => (s.bot ? -1 : i)).filter((i) => i >= 0);
  // The page acts for the person whose turn it is; between their turns, and
  // at the end of a game of friends, for nobody in particular.
  const you = () => {
    const a = eng.toAct(gid);
    if (a >= 0 && !cur.seats[a].bot) return a;
    return people.length === 1 ? people[0] : -1;
  };
  return (g, id, banner, onMessage) => {
    g.online = true;
    let timer = null, closed = false;
    const deliver = (m) => {
      if (m.type === 'update' || m.type === 'welcome') {
        const s = you();
        m.you = { seat: s, name: s >= 0 ? cur.seats[s].name : '' };
        cur.record = eng.record(gid);
        if (m.state.phase === 'over') finish(eng, gid, cur);
        else write(CURRENT, cur);
      }
      onMessage(m);
      if (!closed && eng.botToAct(gid)) {
        clearTimeout(timer);
        timer = setTimeout(() => { if (!closed && eng.botToAct(gid)) deliver(eng.botAct(gid)); }, BOT_DELAY);
      }
    };
    g.ws = {
      readyState: 1,
      send(text) {
        const m = JSON.parse(text);
        if (m.type === 'action') deliver(eng.act(gid, g.you.seat, m));
        else if (m.type === 'hint') {
          const seat = g.you.seat >= 0 ? g.you.seat : people[0];
          deliver(eng.hint(gid, seat));
        }
      },
      close() { closed = true; clearTimeout(timer); },
    };
    deliver(eng.welcome(gid, you()));
  };
}

// playPage shows the local game cur ({seats, seed, record?, you}) and
// plays it.
async function playPage(cur) {
  const draw = drawer();
  const eng = await loadEngine();
  if (!draw.current()) return null; // left while the engine loaded
  let gid;
  if (cur.record) gid = eng.resume(cur.record, cur.seed, lang);
  else {
    gid = eng.newGame({ rules: cur.rules, seats: cur.seats, seed: cur.seed, started: cur.started }, lang);
    cur.record = eng.record(gid);
    write(CURRENT, cur);
  }
  // The side box is made once: the page draws it again after every
  // action, and one opened stays open through the bots' moves.
  const side = h('details', { class: 'card local-side' }, h('summary', {}, msg('web.feel.title')), h('p', { class: 'muted small' }, msg('web.local.side')), feelSettings());
  const gone = tablePage('local', {
    connect: connector(eng, gid, cur),
    endExtras: (g) => endExtras(g, cur),
    side: () => side,
  });
  return () => { gone(); eng.close(gid); };
}

// keptLine says where a finished local game is: kept on the server, waiting
// for the network or for a player, or refused.
function keptLine(e) {
  if (e.kept) return h('span', { class: 'kept ok' }, msg('web.local.kept'), ' ', h('a', { href: `/replay/${e.kept}` }, msg('end.replay')));
  if (e.error) return h('span', { class: 'kept bad' }, msg('web.local.refused', { why: e.error }));
  if (!navigator.onLine) return h('span', { class: 'kept muted' }, msg('web.local.waitNetwork'));
  if (!state.me) {
    return h('button', { class: 'small keep-it', type: 'button', onclick: async (ev) => {
      ev.target.disabled = true;
      try {
        const rec = JSON.parse(e.record);
        await ensurePlayer(rec.players[e.you]);
        await syncUploads();
      } catch { /* offline again: tried later */ }
      changed();
    } }, msg('web.local.keep'));
  }
  return h('span', { class: 'kept muted' }, msg('web.local.keeping'));
}

function recordLink(e, label) {
  const url = URL.createObjectURL(new Blob([e.record], { type: 'application/json' }));
  return h('a', { class: 'button download', href: url, download: `farkle-local-${e.id.slice(0, 12)}.json` }, label);
}

// endExtras is the end screen's bottom of a local game: where its record
// goes, its download and a new game.
function endExtras(g, cur) {
  const box = h('div', { class: 'local-end', id: 'local-end' });
  const draw = () => {
    const e = localHistory().find((x) => x.id === g.table.commitment);
    box.replaceChildren(
      e ? h('p', { id: 'kept-line' }, keptLine(e)) : '',
      h('p', { class: 'row gap' },
        e ? recordLink(e, msg('end.download')) : '',
        h('button', { class: 'primary', id: 'local-again', type: 'button', onclick: () => startGame({ ...cur, record: null, seed: randomSeed(), started: new Date().toISOString() }) }, msg('web.local.again')),
        h('a', { class: 'button', href: '/local', id: 'local-home' }, msg('web.local.back'))));
  };
  draw();
  onChange(box, draw);
  return box;
}

let current = null; // the cleanup of the game shown

function startGame(cur) {
  write(CURRENT, cur);
  history.pushState(null, '', '/local');
  return showCurrent();
}

async function showCurrent() {
  if (current) { current(); current = null; }
  const draw = drawer();
  const cur = read(CURRENT, null);
  try {
    current = await playPage(cur);
  } catch (ex) {
    // A saved game the engine refuses (damaged storage): say so, and let it go.
    write(CURRENT, null);
    draw(h('h1', {}, msg('web.local.title')), h('p', { class: 'error', role: 'alert' }, msg('web.local.lost', { why: ex.message })), h('p', {}, h('a', { class: 'button', href: '/local' }, msg('web.local.back'))));
  }
  return current;
}

// setupForm is the form of a new local game: your name, the rules, and
// the other seats, each a bot of a level or a friend at this phone.
function setupForm(eng) {
  const saved = read(SETUP, { name: state.me ? state.me.name : '', rules: 'classic', target: 10000, others: [{ bot: 'steady' }] });
  const levels = eng.levels();
  const presets = eng.presets().filter((p) => p !== 'dragon');
  const err = h('p', { class: 'error', role: 'alert' });
  const others = h('ol', { class: 'local-seats' });
  const otherRow = (o) => {
    const name = h('input', { class: 'friend-name', maxlength: '24', placeholder: msg('web.local.friendName'), value: o.name || '', hidden: !!o.bot, 'aria-label': msg('web.local.friendName') });
    const sel = h('select', { class: 'seat-kind', 'aria-label': msg('web.local.opponent'), onchange: () => { name.hidden = sel.value !== ''; if (!name.hidden) name.focus(); } },
      levels.map((l) => h('option', { value: l.name, selected: o.bot === l.name, title: botDescription(l) }, botLevel(l.name))),
      h('option', { value: '', selected: !o.bot }, msg('web.local.friend')));
    return h('li', { class: 'row gap' }, sel, name,
      h('button', { type: 'button', class: 'small ghost remove', 'aria-label': msg('web.local.remove'), onclick: (e) => { if (others.children.length > 1) e.target.closest('li').remove(); } }, '×'));
  };
  for (const o of saved.others) others.appendChild(otherRow(o));
  const nameIn = h('input', { id: 'local-name', maxlength: '24', autocomplete: 'nickname', value: saved.name || (state.me ? state.me.name : ''), placeholder: msg('web.guestWord') });
  const rulesSel = h('select', { id: 'local-rules' }, presets.map((p) => h('option', { value: p, selected: p === saved.rules }, p)));
  // Every preset plays to 10,000; a shorter game suits a bus ride.
  const targetSel = h('select', { id: 'local-target' }, [1000, 2000, 5000, 10000].map((n) => h('option', { value: n, selected: n === (saved.target || 10000) }, num(n))));
  const form = h('form', { class: 'card local-form', id: 'local-form', onsubmit: (e) => {
    e.preventDefault();
    const me = nameIn.value.trim() || msg('web.local.you');
    const rows = [...others.children].map((li) => {
      const bot = li.querySelector('.seat-kind').value;
      return bot ? { bot } : { name: li.querySelector('.friend-name').value.trim() };
    });
    const seats = [{ name: me }];
    rows.forEach((o, i) => seats.push(o.bot ? { name: botName(o.bot), bot: o.bot } : { name: o.name || msg('web.local.friendN', { n: i + 1 }) }));
    // Two seats may not share a name: number the second.
    const seen = new Map();
    for (const s of seats) {
      const n = (seen.get(s.name) || 0) + 1;
      seen.set(s.name, n);
      if (n > 1) s.name = `${s.name} ${n}`;
    }
    const target = Number(targetSel.value);
    write(SETUP, { name: nameIn.value.trim(), rules: rulesSel.value, target, others: rows });
    const rules = target === 10000 ? rulesSel.value : { base: rulesSel.value, name: rulesSel.value, game: { target } };
    try {
      startGame({ rules, seats, seed: randomSeed(), you: 0, started: new Date().toISOString().replace(/\.\d+Z$/, 'Z') });
    } catch (ex) { err.textContent = ex.message; }
  } },
  h('label', { class: 'field' }, msg('home.name'), nameIn),
  h('div', { class: 'row gap local-rules-row' }, h('label', { class: 'field grow' }, msg('web.local.rules'), rulesSel),
    h('label', { class: 'field' }, msg('web.local.target'), targetSel)),
  h('div', { class: 'field' }, msg('web.local.others'), others,
    h('button', { type: 'button', class: 'small', id: 'local-add', onclick: () => { if (others.children.length < 7) others.appendChild(otherRow({ bot: 'steady' })); } }, msg('web.local.add'))),
  h('button', { class: 'big primary', id: 'local-start', type: 'submit' }, msg('web.local.start')),
  err);
  return form;
}

function historyList() {
  const box = h('section', { class: 'local-history', id: 'local-history' });
  const draw = (list = localHistory()) => box.replaceChildren(h('h2', {}, msg('web.local.history')),
    list.length ? h('ul', { class: 'tables' }, list.map((e) => {
      const rec = JSON.parse(e.record);
      const scores = (rec.meta && rec.meta.scores) || [];
      const winners = ((rec.meta && rec.meta.winners) || []).map((w) => rec.players[w]);
      return h('li', { class: 'card row local-game' },
        h('div', { class: 'grow' },
          h('strong', { class: 'seats-line' }, rec.players.flatMap((p, i) => [i ? msg('web.vs') : '', nameEl(p)])),
          h('div', { class: 'muted small' }, `${rulesName(rec.rules)} · ${scores.map(num).join('–')}`,
            winners.length ? ` · ${msg('web.wonBy', { names: winners.join(msg('end.and')) })}` : '', e.ended ? ` · ${date(e.ended)}` : ''),
          h('div', { class: 'small' }, keptLine(e))),
        recordLink(e, msg('web.record')));
    })) : h('p', { class: 'muted' }, msg('web.local.none')));
  draw();
  onChange(box, draw);
  return box;
}

// localPage is /local: the game in progress, else a new game's form and
// the local history.
export async function localPage() {
  if (read(CURRENT, null)) return showCurrent();
  const draw = drawer();
  draw(h('h1', {}, msg('web.local.title')), h('p', { class: 'muted' }, msg('web.loading')));
  let eng;
  try {
    eng = await loadEngine();
  } catch (ex) {
    draw(h('h1', {}, msg('web.local.title')), h('p', { class: 'error' }, msg('web.local.noEngine', { why: ex.message })));
    return null;
  }
  if (!draw.current()) return null;
  draw(h('section', { class: 'local' },
    h('h1', {}, msg('web.local.title')),
    h('p', { class: 'lead local-lead' }, msg('web.local.lead')),
    setupForm(eng),
    h('div', { class: 'card' }, h('h2', {}, msg('web.feel.title')), feelSettings()),
    historyList()));
  syncUploads();
  return null;
}
