// pace.js: games at your own pace. The home page lists the player's open
// games, those waiting on the player first with what the other seat did
// last; the tab title counts them; the new-table form chooses the pace.
import { h, api, state } from './app.js';

export const paces = [['', 'Live (seconds a move)'], ['1h', '1 hour a move'], ['12h', '12 hours a move'], ['1d', '1 day a move'], ['3d', '3 days a move']];

// left says how long until a deadline: "23 h left", "2 d left".
function left(deadline) {
  const ms = new Date(deadline) - Date.now();
  if (ms <= 0) return 'time is up';
  const m = Math.round(ms / 60000);
  if (m < 60) return `${m} min left`;
  if (m < 48 * 60) return `${Math.round(m / 60)} h left`;
  return `${Math.round(m / 1440)} d left`;
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
  if (!state.me) { setTitleCount(0); return []; }
  try {
    const games = await api('GET', '/api/me/games');
    setTitleCount(games.filter((g) => g.your_move).length);
    return games;
  } catch { return []; }
}

// startTitleCount keeps the tab title's count up to date, every 30 s and
// whenever the tab comes back into view.
export function startTitleCount() {
  refreshTitleCount();
  setInterval(refreshTitleCount, 30000);
  document.addEventListener('visibilitychange', () => { if (!document.hidden) refreshTitleCount(); });
}

// myGames fills box with the player's open games, "your move" first.
export async function myGames(box) {
  const games = await refreshTitleCount();
  box.dataset.loaded = 'yes';
  if (!games.length) { box.replaceChildren(); return; }
  const line = (g) => h('li', { class: `card row my-game${g.your_move ? ' your-move' : ''}`, 'data-table': g.id },
    h('div', { class: 'grow' },
      h('a', { href: `/t/${g.id}` }, h('strong', {}, g.seats.filter((s, i) => i !== g.seat).map((s) => s.invited ? `${s.name} (invited)` : s.free ? '(free seat)' : s.name).join(', ') || 'Table')),
      h('span', { class: 'muted small' }, g.pace ? ` · ${g.pace} a move` : ' · live', g.status === 'waiting' ? ' · waiting for players' : ''),
      g.last ? h('div', { class: 'last-turn' }, g.last) : '',
      h('div', { class: 'muted small' }, g.invited ? `${g.seats.find((s) => !s.free && s.player_id) ? g.seats.find((s) => !s.free && s.player_id).name : 'A player'} invites you` :
        g.your_move ? 'Your move' : g.to_act ? `Waiting on ${g.to_act}` : '', g.deadline ? ` · ${left(g.deadline)}` : '')),
    g.invited ? h('button', { class: 'primary accept-invite', type: 'button', onclick: async (e) => {
      e.target.disabled = true;
      try { await api('POST', `/api/tables/${g.id}/join`); location.assign(`/t/${g.id}`); } catch (ex) { e.target.replaceWith(h('span', { class: 'error' }, ex.message)); }
    } }, 'Accept') :
    h('a', { class: g.your_move ? 'button primary' : 'button', href: `/t/${g.id}` }, g.your_move ? 'Play' : 'Watch'));
  const invited = games.filter((g) => g.invited);
  const mine = games.filter((g) => g.your_move && !g.invited), others = games.filter((g) => !g.your_move && !g.invited);
  box.replaceChildren(
    invited.length ? h('section', { id: 'invitations' }, h('h2', {}, `Invitations (${invited.length})`), h('ul', { class: 'tables' }, invited.map(line))) : '',
    mine.length ? h('section', { id: 'your-move' }, h('h2', {}, `Your move (${mine.length})`), h('ul', { class: 'tables' }, mine.map(line))) : '',
    others.length ? h('section', { id: 'waiting-on-others' }, h('h2', {}, 'Waiting on others'), h('ul', { class: 'tables' }, others.map(line))) : '');
}

// paceField is the new-table form's choice of pace.
export function paceField() {
  const sel = h('select', { id: 'pace', name: 'pace' }, paces.map(([v, label]) => h('option', { value: v }, label)));
  return { el: h('label', { class: 'field' }, 'Pace', sel), value: () => sel.value || undefined };
}

export { lastCount };
