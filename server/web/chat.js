// chat.js: a table's chat beside the game: short plain-text lines of the
// players (set as text, never markup), a box to write one for a seated
// player, a "Good game" button once the game is over, and a mute per
// player, kept in this browser.
import { h } from './ui.js';
import { msg } from './i18n.js';

const mutedKey = 'farkle.muted';

function muted() {
  try { return new Set(JSON.parse(localStorage.getItem(mutedKey) || '[]')); } catch { return new Set(); }
}

function setMuted(set) {
  try { localStorage.setItem(mutedKey, JSON.stringify([...set])); } catch { /* private mode: the mute lasts the page */ }
}

// chatPanel returns the chat of a table page: g is the page's state (g.you,
// g.table), send sends a message on its WebSocket. Feed it the server's
// chat messages with add.
export function chatPanel(g, send) {
  let lines = [];
  let mute = muted();
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
  const el = h('section', { class: 'card chat', id: 'chat', 'aria-label': msg('web.chat.title') }, h('h2', {}, msg('web.chat.title')), list, form);

  function draw() {
    const seated = g.you && g.you.seat >= 0;
    form.hidden = !seated;
    gg.hidden = !(seated && g.table && g.table.status === 'over');
    list.replaceChildren(...lines.map((l) => {
      const you = g.you && l.player === g.you.player_id;
      const toggle = you ? '' : h('button', { type: 'button', class: 'small ghost mute', 'data-player': l.player, title: msg(mute.has(l.player) ? 'web.chat.showLines' : 'web.chat.muteName', { name: l.name }),
        onclick: () => { if (mute.has(l.player)) mute.delete(l.player); else mute.add(l.player); setMuted(mute); draw(); } }, msg(mute.has(l.player) ? 'web.chat.unmute' : 'web.chat.mute'));
      return h('li', { 'data-n': String(l.n), class: mute.has(l.player) ? 'muted-line' : '' },
        h('strong', {}, l.name), ' ', mute.has(l.player) ? h('span', { class: 'muted small' }, msg('web.chat.muted')) : h('span', { class: 'chat-text' }, l.text), ' ', toggle);
    }));
    list.scrollTop = list.scrollHeight;
  }

  // add takes a chat message: the last lines after a welcome, or one new.
  function add(m) {
    if (m.history) lines = [];
    const seen = new Set(lines.map((l) => l.n));
    lines = lines.concat(m.lines.filter((l) => !seen.has(l.n))).sort((a, b) => a.n - b.n).slice(-100);
    draw();
  }

  return { el, add, draw };
}
