// tournament.js: tournaments: the list and the form to create one, and a
// tournament's page: its standings, its rounds, and which games wait on
// whom, kept up to date while it runs.
import { h, api, page, go, state, ensurePlayer, fmt } from './app.js';
import { paceField } from './pace.js';

const formats = [['round-robin', 'Round-robin: everyone plays everyone'], ['swiss', 'Swiss: a few rounds against like records'], ['knockout', 'Knockout: lose and you are out']];

function summary(t) {
  return `${t.format} · ${t.entrants.length}/${t.size} entrants${t.pace ? ` · ${t.pace} a move` : ''}${t.rated ? ' · rated' : ''}` +
    (t.start ? ` · starts ${new Date(t.start).toLocaleString('en-GB', { timeZone: 'UTC' })} UTC` : t.status === 'open' ? ' · starts when full' : '');
}

// tournamentsPage lists the tournaments and offers the form to create one.
export async function tournamentsPage() {
  const [list, presets, bots] = await Promise.all([api('GET', '/api/tournaments'), api('GET', '/api/presets'), api('GET', '/api/bots')]);
  const err = h('p', { class: 'error', role: 'alert' });
  const name = h('input', { id: 't-name', maxlength: '24', value: 'Friday cup' });
  const format = h('select', { id: 't-format' }, formats.map(([v, l]) => h('option', { value: v }, l)));
  const size = h('input', { id: 't-size', type: 'number', min: '3', max: '64', value: '4' });
  const preset = h('select', { id: 't-rules' }, presets.map((p) => h('option', { value: p.name, selected: p.name === 'classic' }, p.name)));
  const target = h('input', { id: 't-target', type: 'number', step: '500', min: '500', placeholder: "the preset's" });
  const pace = paceField();
  const rated = h('input', { type: 'checkbox', id: 't-rated' });
  const start = h('input', { id: 't-start', type: 'datetime-local' });
  const me = h('input', { type: 'checkbox', id: 't-me', checked: true });
  const nbots = h('input', { id: 't-bots', type: 'number', min: '0', max: '63', value: '3' });
  const level = h('select', { id: 't-level' }, bots.map((b) => h('option', { value: b.name, selected: b.name === 'steady' }, b.name)));
  const form = h('form', { class: 'card', id: 'new-tournament', onsubmit: async (e) => {
    e.preventDefault();
    err.textContent = '';
    try {
      await ensurePlayer();
      const entrants = (me.checked ? [{ type: 'me' }] : []).concat(Array.from({ length: Number(nbots.value) || 0 }, () => ({ type: 'bot', level: level.value })));
      const rules = target.value ? { base: preset.value, game: { target: Number(target.value) } } : preset.value;
      const t = await api('POST', '/api/tournaments', { name: name.value.trim(), format: format.value, size: Number(size.value), rules, pace: pace.value(),
        rated: rated.checked || undefined, start: start.value ? new Date(start.value).toISOString().replace(/\.\d+Z$/, 'Z') : undefined, entrants });
      go(`/tournaments/${t.id}`);
    } catch (ex) { err.textContent = ex.message; }
  } },
  h('h2', {}, 'New tournament'),
  h('label', { class: 'field' }, 'Name', name), h('label', { class: 'field' }, 'Format', format), h('label', { class: 'field' }, 'Entrants (3 to 64)', size),
  h('label', { class: 'field' }, 'Rules', preset), h('label', { class: 'field' }, 'Target (optional)', target), pace.el,
  h('label', { class: 'field check' }, rated, 'Rated, even with house rules'),
  h('label', { class: 'field' }, 'Start (empty: when full)', start),
  h('label', { class: 'field check' }, me, 'I play'),
  h('p', { class: 'row gap' }, h('label', { class: 'field' }, 'Bots', nbots), h('label', { class: 'field' }, 'of level', level)),
  h('button', { type: 'submit', class: 'primary', id: 't-create' }, 'Create the tournament'), err);
  page(h('h1', {}, 'Tournaments'),
    list.length ? h('ul', { class: 'tables', id: 'tournaments' }, list.map((t) => h('li', { class: 'card row', 'data-id': t.id },
      h('div', { class: 'grow' }, h('a', { href: `/tournaments/${t.id}` }, h('strong', {}, t.name)), h('div', { class: 'muted small' }, `${t.status} · `, summary(t))),
      h('a', { class: 'button', href: `/tournaments/${t.id}` }, t.status === 'open' ? 'Join or watch' : 'Open')))) : h('p', { class: 'muted' }, 'No tournament yet.'),
    form);
}

// tournamentPage shows one tournament and keeps it up to date every few
// seconds until it is over; it returns the function that stops that.
export async function tournamentPage(id) {
  let timer = null;
  const draw = async () => {
    const t = await api('GET', `/api/tournaments/${id}`);
    const myID = state.me && state.me.id;
    const entered = t.entrants.some((e) => e.player_id === myID);
    const err = h('p', { class: 'error', role: 'alert' });
    const join = t.status === 'open' && !entered ? h('button', { class: 'primary', id: 't-join', onclick: async () => {
      try { await ensurePlayer(); await api('POST', `/api/tournaments/${id}/join`, {}); draw(); } catch (ex) { err.textContent = ex.message; }
    } }, 'Join') : '';
    const mineAt = (g) => myID && [g.a, g.b].some((i) => i >= 0 && t.entrants[i] && t.entrants[i].player_id === myID);
    const game = (g) => h('li', { class: `tour-game${g.done ? ' done' : ''}${mineAt(g) ? ' mine' : ''}`, 'data-table': g.table || '' },
      g.b < 0 ? `${g.a_name}: a bye` : [
        h('span', {}, `${g.a_name} vs ${g.b_name}`), ' ',
        g.done ? h('span', { class: 'result' }, `${fmt(g.pa)}–${fmt(g.pb)}${g.winner >= 0 ? ` · ${t.entrants[g.winner].name} wins` : ' · drawn'}`) :
          h('span', { class: 'waiting muted small' }, g.waiting_on ? `waiting on ${g.waiting_on}` : 'starting'),
        ' ', g.table ? h('a', { class: mineAt(g) && !g.done ? 'button primary small play-tour-game' : 'small', href: `/t/${g.table}` }, mineAt(g) && !g.done ? 'Play' : g.done ? 'Replay' : 'Watch') : '']);
    page(h('h1', {}, t.name),
      h('p', { class: 'muted', id: 't-status', 'data-status': t.status }, `${t.status}${t.reason ? `: ${t.reason}` : ''} · `, summary(t)),
      t.champion ? h('p', { class: 'champion', id: 't-champion' }, `Winner: ${t.champion}`) : '',
      join, err,
      h('section', { class: 'card' }, h('h2', {}, 'Standings'),
        h('table', { class: 'stats', id: 't-standings' }, h('thead', {}, h('tr', {}, ['#', 'Entrant', 'Played', 'Won', 'Drawn', 'Lost', 'Points', 'Difference'].map((x) => h('th', {}, x)))),
          h('tbody', {}, t.standings.map((s, i) => h('tr', { class: s.player && s.player === myID ? 'you' : '' },
            h('td', {}, i + 1), h('td', {}, s.name), h('td', {}, s.played), h('td', {}, s.wins), h('td', {}, s.draws), h('td', {}, s.losses),
            h('td', {}, fmt(s.for)), h('td', {}, (s.diff > 0 ? '+' : '') + fmt(s.diff))))))),
      h('section', { class: 'card', id: 't-rounds' }, h('h2', {}, `Rounds (${t.rounds.length} of ${t.total_rounds})`),
        t.rounds.length ? t.rounds.map((r, k) => h('div', { class: 'tour-round' }, h('h3', {}, `Round ${k + 1}`), h('ul', {}, r.map(game)))) :
          h('p', { class: 'muted' }, t.status === 'open' ? 'The pairings come when it starts.' : '')));
    if (t.status === 'over' && timer) { clearInterval(timer); timer = null; }
  };
  await draw();
  timer = setInterval(() => { draw().catch(() => {}); }, 3000);
  return () => { if (timer) clearInterval(timer); };
}
