// pace.js: games at your own pace. The home page lists the player's open
// games, those waiting on the player first with what the other seat did
// last; the tab title counts them (and a notification, when the player
// asked for them, says a move has come: notify.js); the new-table form
// chooses the pace.
import { h, api, state } from './ui.js';
import { msg, lang } from './i18n.js';
import { noteMoves } from './notify.js';

export const paces = ['', '1h', '12h', '1d', '3d'];

// left says how long until a deadline: "23 h left", "2 d left".
function left(deadline) {
  const ms = new Date(deadline) - Date.now();
  if (ms <= 0) return msg('web.pace.up');
  const m = Math.round(ms / 60000);
  if (m < 60) return msg('web.pace.minLeft', { n: m });
  if (m < 48 * 60) return msg('web.pace.hLeft', { n: Math.round(m / 60) });
  return msg('web.pace.dLeft', { n: Math.round(m / 1440) });
}

let lastCount = -1;

// setTitleCount shows in the tab title how many games wait on the player.
function setTitleCount(n) {
  lastCount = n;
  const base = document.title.replace(/^\(\d+\) /, '');
  document.title = n > 0 ? `(${n}) ${base}` : base;
}

// refreshTitleCount asks the server how many games wait on the player.
export async function refreshTitleCount() {
  try { return await loadGames(); } catch { return []; }
}

// loadGames reads the player's open games and counts in the tab title
// those waiting on the player; it throws what the server answered.
async function loadGames() {
  if (!state.me) { setTitleCount(0); return []; }
  const games = await api('GET', `/api/me/games?lang=${lang}`);
  setTitleCount(games.filter((g) => g.your_move).length);
  noteMoves(games);
  return games;
}

// startTitleCount keeps the tab title's count up to date, every 30 s and
// whenever the tab comes back into view.
export function startTitleCount() {
  refreshTitleCount();
  setInterval(refreshTitleCount, 30000);
  document.addEventListener('visibilitychange', () => { if (!document.hidden) refreshTitleCount(); });
}

// inviterName is the name of the player who sent invitation g.
function inviterName(g) {
  return (g.invited_by && g.invited_by.name) || msg('web.pace.aPlayer');
}

// invitationButtons are an invitation's Accept, Decline and Block: accept
// takes the seat; decline frees it (the inviter's table is told); block
// hides every invitation of the inviter from this player, silently.
// done(text) reports what was done in place of the line.
function invitationButtons(g, done) {
  const name = inviterName(g);
  const fail = (e, ex) => e.target.closest('.invite-actions').replaceWith(h('span', { class: 'error' }, ex.message));
  return h('div', { class: 'row gap invite-actions' },
    h('button', { class: 'primary accept-invite', type: 'button', onclick: async (e) => {
      e.target.disabled = true;
      try { await api('POST', `/api/tables/${g.id}/join`); location.assign(`/t/${g.id}`); } catch (ex) { fail(e, ex); }
    } }, msg('rematch.accept')),
    h('button', { class: 'decline-invite', type: 'button', 'aria-label': msg('web.invite.declineFrom', { name }), onclick: async (e) => {
      e.target.disabled = true;
      try { await api('POST', `/api/tables/${g.id}/decline`); done(msg('web.invite.declined', { name })); } catch (ex) { fail(e, ex); }
    } }, msg('web.invite.decline')),
    g.invited_by ? h('button', { class: 'block-inviter', type: 'button', 'aria-label': msg('web.invite.blockName', { name }), title: msg('web.invite.blockName', { name }), onclick: async (e) => {
      e.target.disabled = true;
      try { await api('POST', '/api/me/blocks', { player: g.invited_by.id }); done(msg('web.invite.blocked', { name }), g.invited_by.id); } catch (ex) { fail(e, ex); }
    } }, msg('web.invite.block')) : '');
}

// myGames fills box with the player's open games, "your move" first. A
// list that could not be read says so, with a button to try again, rather
// than showing no games.
export async function myGames(box) {
  let games;
  try {
    games = await loadGames();
  } catch (ex) {
    box.dataset.loaded = 'error';
    box.replaceChildren(h('p', { class: 'error load-games', role: 'alert' }, msg('web.pace.loadFailed', { reason: ex.message }), ' ',
      h('button', { type: 'button', class: 'button retry-games', onclick: () => myGames(box) }, msg('web.pace.retry'))));
    return;
  }
  box.dataset.loaded = 'yes';
  if (!games.length) { box.replaceChildren(); return; }
  const line = (g) => {
    const li = h('li', { class: `card row my-game${g.your_move ? ' your-move' : ''}`, 'data-table': g.id },
      h('div', { class: 'grow' },
        h('a', { href: `/t/${g.id}` }, h('strong', {}, g.seats.filter((s, i) => i !== g.seat).map((s) => s.invited ? msg('web.pace.invitedName', { name: s.name }) : s.free ? msg('web.freeSeat') : s.name).join(', ') || msg('web.table'))),
        h('span', { class: 'muted small' }, ' · ', g.pace ? msg('web.pace.perMove', { pace: paceName(g.pace) }) : msg('web.pace.live'), g.status === 'waiting' ? ` · ${msg('wait.title')}` : ''),
        g.last ? h('div', { class: 'last-turn' }, g.last) : '',
        h('div', { class: 'muted small' }, g.invited ? msg('web.pace.invites', { name: inviterName(g) }) :
          g.your_move ? msg('web.pace.yourMove') : g.to_act ? msg('web.pace.waitingOn', { name: g.to_act }) : '', g.deadline ? ` · ${left(g.deadline)}` : '')),
      g.invited ? invitationButtons(g, (text, blocked) => {
        // The line goes (with every other invitation of a player blocked),
        // and a line says what was done.
        const lines = [...box.querySelectorAll('#invitations li.my-game')].filter((el) => el === li || (blocked && el.dataset.inviter === blocked));
        for (const el of lines) el.remove();
        const list = box.querySelector('#invitations ul');
        list.prepend(h('li', { class: 'card invite-done', role: 'status' }, text));
        box.querySelector('#invitations h2').textContent = msg('web.pace.invitations', { n: list.querySelectorAll('li.my-game').length });
      }) :
      h('a', { class: g.your_move ? 'button primary' : 'button', href: `/t/${g.id}` }, g.your_move ? msg('hint.play') : msg('lobby.watch')));
    if (g.invited_by) li.dataset.inviter = g.invited_by.id;
    return li;
  };
  const adjourned = games.filter((g) => g.status === 'adjourned');
  const open = games.filter((g) => g.status !== 'adjourned');
  const invited = open.filter((g) => g.invited);
  const mine = open.filter((g) => g.your_move && !g.invited), others = open.filter((g) => !g.your_move && !g.invited);
  box.replaceChildren(
    invited.length ? h('section', { id: 'invitations' }, h('h2', {}, msg('web.pace.invitations', { n: invited.length })), h('ul', { class: 'tables' }, invited.map(line))) : '',
    mine.length ? h('section', { id: 'your-move' }, h('h2', {}, msg('web.pace.yourMoves', { n: mine.length })), h('ul', { class: 'tables' }, mine.map(line))) : '',
    others.length ? h('section', { id: 'waiting-on-others' }, h('h2', {}, msg('web.pace.waitingOthers')), h('ul', { class: 'tables' }, others.map(line))) : '',
    adjourned.length ? h('section', { id: 'adjourned-games' }, h('h2', {}, msg('web.adjourned.games')), h('p', { class: 'muted small' }, msg('web.adjourned.why')),
      h('ul', { class: 'tables' }, adjourned.map(adjournedLine))) : '');
}

// adjournedLine is an adjourned game of the player with its Resume button:
// the game is playing again, and the page goes to it.
function adjournedLine(g) {
  return h('li', { class: 'card row my-game adjourned', 'data-table': g.id },
    h('div', { class: 'grow' },
      h('a', { href: `/t/${g.id}` }, h('strong', {}, g.seats.filter((s, i) => i !== g.seat).map((s) => s.name).join(', ') || msg('web.table'))),
      h('span', { class: 'muted small' }, ' · ', msg('web.adjourned.tag'))),
    h('button', { class: 'button primary resume', type: 'button', onclick: async (e) => {
      e.target.disabled = true;
      try { await api('POST', `/api/tables/${g.id}/resume`); location.assign(`/t/${g.id}`); } catch (ex) { e.target.replaceWith(h('span', { class: 'error' }, ex.message)); }
    } }, msg('web.adjourned.resume')));
}

// paceField is the new-table form's choice of pace.
export function paceField() {
  const sel = h('select', { id: 'pace', name: 'pace' }, paces.map((v) => h('option', { value: v }, v ? msg('web.pace.perMove', { pace: paceName(v) }) : msg('web.pace.liveLong'))));
  return { el: h('label', { class: 'field' }, msg('web.pace.title'), sel), value: () => sel.value || undefined };
}

// paceName reads a pace ("1h", "12h", "1d", "3d") in the page's language:
// "1 hour", "12 timer".
export function paceName(p) {
  const m = /^(\d+)([hd])$/.exec(p || '');
  if (!m) return p;
  return msg(m[2] === 'h' ? 'web.pace.hours' : 'web.pace.days', { n: Number(m[1]) });
}

export { lastCount };
