// chat.js: a table's chat beside the game: short plain-text lines of the
// players (set as text, never markup), a box to write one for a seated
// player, a "Good game" button once the game is over, and a mute per
// player, kept in this browser. Watchers talk in a channel of their own,
// which the players do not see: a watcher reads the players' lines in one
// tab and writes in the watchers' tab. Each line of another player may be
// reported to the moderators; a line a moderator hid shows as hidden; a
// muted or banned player reads until when in place of the box.
import { h, state, sanctionText } from './ui.js';
import { msg } from './i18n.js';
import { reportControl } from './report.js';

const mutedKey = 'farkle.muted';

function muted() {
  try { return new Set(JSON.parse(localStorage.getItem(mutedKey) || '[]')); } catch { return new Set(); }
}

function setMuted(set) {
  try { localStorage.setItem(mutedKey, JSON.stringify([...set])); } catch { /* private mode: the mute lasts the page */ }
}

// chatPanel returns the chat of a table page: g is the page's state (g.id,
// g.you, g.table), send sends a message on its WebSocket. Feed it the
// server's chat messages with add, a sanction of this player with
// sanction.
export function chatPanel(g, send) {
  const channels = { players: [], watchers: [] };
  let tab = 'players';
  let mute = muted();
  let refused = null; // the sanction in force on this player, as the server said it
  const list = h('ol', { class: 'chat-lines', id: 'chat-lines', 'aria-live': 'polite' });
  const input = h('input', { id: 'chat-text', maxlength: '200', placeholder: msg('web.chat.say'), autocomplete: 'off', 'aria-label': msg('web.chat.title') });
  const gg = h('button', { type: 'button', id: 'good-game', class: 'small', hidden: true, onclick: () => send({ type: 'chat', text: msg('web.chat.ggText') }) }, msg('web.chat.gg'));
  const form = h('form', { class: 'row gap chat-form', onsubmit: (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    send({ type: 'chat', text });
    input.value = '';
  } }, input, h('button', { type: 'submit', class: 'small' }, msg('web.chat.send')), gg);
  const notice = h('p', { class: 'error small chat-sanction', id: 'chat-sanction', role: 'alert', hidden: true });
  const tabs = h('div', { class: 'chat-tabs row gap', role: 'tablist', hidden: true },
    ['players', 'watchers'].map((c) => h('button', { type: 'button', role: 'tab', class: 'small ghost', id: `chat-tab-${c}`, 'data-channel': c,
      onclick: () => { tab = c; draw(); } }, msg(`web.chat.tab.${c}`))));
  const el = h('section', { class: 'card chat', id: 'chat', 'aria-label': msg('web.chat.title') }, h('h2', {}, msg('web.chat.title')), tabs, list, notice, form);

  const watching = () => !!(g.you && g.you.player_id && g.you.seat < 0);
  const tableID = () => g.id || (g.table && g.table.id);

  function lineEl(l) {
    const you = g.you && l.player === g.you.player_id;
    const toggle = you ? '' : h('button', { type: 'button', class: 'small ghost mute', 'data-player': l.player, title: msg(mute.has(l.player) ? 'web.chat.showLines' : 'web.chat.muteName', { name: l.name }),
      onclick: () => { if (mute.has(l.player)) mute.delete(l.player); else mute.add(l.player); setMuted(mute); draw(); } }, msg(mute.has(l.player) ? 'web.chat.unmute' : 'web.chat.mute'));
    let text;
    if (l.hidden) text = h('span', { class: 'muted small chat-hidden' }, msg('web.chat.hidden'));
    else if (mute.has(l.player)) text = h('span', { class: 'muted small' }, msg('web.chat.muted'));
    else text = h('span', { class: 'chat-text' }, l.text);
    const report = you || l.hidden || !state.me ? '' : reportControl({ table: tableID(), line: l.n });
    return h('li', { 'data-n': String(l.n), class: mute.has(l.player) ? 'muted-line' : '' },
      h('strong', {}, l.name), ' ', text, ' ', toggle, ' ', report);
  }

  function draw() {
    const seated = g.you && g.you.seat >= 0;
    const w = watching();
    if (!w) tab = 'players';
    tabs.hidden = !w;
    for (const b of tabs.children) b.setAttribute('aria-selected', String(b.dataset.channel === tab));
    // A player writes in the players' channel; a watcher in the watchers'.
    const writes = (seated && tab === 'players') || (w && tab === 'watchers');
    form.hidden = !writes || !!refused;
    notice.hidden = !refused;
    notice.textContent = refused ? sanctionText(refused) : '';
    gg.hidden = !(seated && g.table && g.table.status === 'over');
    // Redrawing a line whose report form is open would lose what is typed.
    if (list.contains(document.activeElement) && document.activeElement.classList.contains('report-reason')) return;
    list.replaceChildren(...channels[tab].map(lineEl));
    list.scrollTop = list.scrollHeight;
  }

  // add takes a chat message: the last lines of a channel after a welcome,
  // or one new (or newly hidden) line.
  function add(m) {
    const c = m.watchers ? 'watchers' : 'players';
    let lines = m.history ? [] : channels[c];
    const fresh = new Map(m.lines.map((l) => [l.n, l]));
    lines = lines.map((l) => fresh.get(l.n) || l);
    const seen = new Set(lines.map((l) => l.n));
    channels[c] = lines.concat(m.lines.filter((l) => !seen.has(l.n))).sort((a, b) => a.n - b.n).slice(-100);
    draw();
  }

  // sanction shows the mute or ban the server says this player is under
  // (a WebSocket error "muted" or "banned"), in place of the box.
  function sanction(m) {
    refused = m.sanction;
    draw();
  }

  return { el, add, draw, sanction };
}
