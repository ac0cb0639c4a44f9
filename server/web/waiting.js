// waiting.js: a table waiting for its players, as the ordinary and the
// Dragon Farkle pages both show it: the seats kept for invited players by
// their names, and the way to take a seat, offered only to those who may
// take one.
import { h, api, state, ensurePlayer, nameField, nameEl } from './ui.js';
import { msg } from './i18n.js';

// seatWho is a seat's player as a scoreboard names it: a seat kept for an
// invited player reads as that player, marked invited, not as a free seat.
export function seatWho(s) {
  if (s.free && s.invited) return h('span', { class: 'invited-seat' }, nameEl(s.name), h('span', { class: 'tag invited' }, msg('tag.invited')));
  return s.free ? h('em', { class: 'muted' }, msg('seat.free')) : nameEl(s.name);
}

// keptFor reports whether seat s is kept for the player named me (the
// name the table's connection knows the browser's player by). The page
// knows the invited player by name only, so a namesake is offered the
// seat too; the server, which knows the player, refuses anyone else
// (takeError says so).
const keptFor = (s, me) => !!me && s.name.toLowerCase() === me.toLowerCase();

// waitingBox is the card of a table waiting for players: its link to
// share, who the invited seats wait for, and "Take a seat" for a visitor
// who may take one (a seat free to all, or one kept for them). take is
// called with the chosen name.
export function waitingBox(g, take) {
  const seated = g.you.seat >= 0, seats = g.table.seats;
  const kept = seats.filter((s) => s.free && s.invited);
  const me = g.you.name || (state.me && state.me.name);
  const may = !seated && seats.some((s) => s.free && (!s.invited || keptFor(s, me)));
  return h('section', { class: 'card play waiting' },
    h('h2', {}, msg('wait.title')),
    h('p', {}, msg('wait.share')),
    h('p', {}, h('input', { class: 'link', readonly: true, value: location.href, onfocus: (e) => e.target.select(), 'aria-label': msg('web.tableLink') })),
    kept.map((s) => h('p', { class: 'kept-note' }, msg('web.seatKeptNote', { name: s.name }))),
    may ? h('div', { class: 'row gap' }, nameField('join-name'), h('button', { class: 'primary', id: 'take-seat', onclick: take }, msg('wait.take'))) : '',
    !seated && !may && kept.length ? h('p', { class: 'muted', id: 'kept-only' }, msg('web.seatKeptWatch')) : '',
    seated ? h('p', { class: 'muted' }, msg('wait.seated')) : '',
    g.err ? h('p', { class: 'error', role: 'alert' }, g.err) : '');
}

// takeSeat takes a seat at table id for the browser's player (made, named
// as the join field says, if it has none) and reconnects g's socket as
// that player. A refusal is said in the page's language on g.err.
export async function takeSeat(g, id, draw) {
  try {
    await ensurePlayer(document.getElementById('join-name').value.trim());
    await api('POST', `/api/tables/${id}/join`);
    g.ws.close(); // reconnect with the new token
  } catch (ex) { g.err = takeError(ex); draw(); }
}

// takeError says why a seat could not be taken: a seat kept for another
// invited player by that player's name, anything else as the API says it.
function takeError(ex) {
  const m = ex.status === 409 && (ex.serverText || '').match(/is kept for (.+), who was invited$/s);
  return m ? msg('web.seatKeptRefused', { name: m[1] }) : ex.message;
}
