// tournament.js: tournaments: the list and the form to create one, and a
// tournament's page: its standings, its rounds, and which games wait on
// whom, kept up to date while it runs.
import { h, api, drawer, go, state, ensurePlayer, nameEl } from './ui.js';
import { paceField, paceName } from './pace.js';
import { msg, date, num } from './i18n.js';
import { botLevel, tourEnd } from './words.js';

const formats = ['round-robin', 'swiss', 'knockout'];
const fmtName = (f) => msg(`web.tour.formatName.${f}`);

function summary(t) {
  return `${msg(`web.tour.formatShort.${t.format}`)} · ${msg('web.tour.entrants', { n: t.entrants.length, size: t.size })}${t.pace ? ` · ${msg('web.pace.perMove', { pace: paceName(t.pace) })}` : ''}${t.rated ? ` · ${msg('web.tour.rated')}` : ''}` +
    (t.start ? ` · ${msg('web.tour.starts', { at: date(t.start, { dateStyle: 'medium', timeStyle: 'medium' }) })}` : t.status === 'open' ? ` · ${msg('web.tour.whenFull')}` : '');
}

// tournamentsPage lists the tournaments and offers the form to create one.
export async function tournamentsPage() {
  const draw = drawer();
  const [list, presets, bots] = await Promise.all([api('GET', '/api/tournaments'), api('GET', '/api/presets'), api('GET', '/api/bots')]);
  const err = h('p', { class: 'error', role: 'alert' });
  const name = h('input', { id: 't-name', maxlength: '24', value: msg('web.tour.defaultName') });
  // The list names the formats (short enough for a phone's width); the
  // line under it says what the one chosen is.
  const formatNote = h('span', { class: 'muted small field-note', id: 't-format-note' }, msg(`web.tour.format.${formats[0]}`));
  const format = h('select', { id: 't-format', 'aria-describedby': 't-format-note', onchange: () => { formatNote.textContent = msg(`web.tour.format.${format.value}`); } },
    formats.map((v) => h('option', { value: v }, fmtName(v))));
  const size = h('input', { id: 't-size', type: 'number', min: '3', max: '64', value: '4' });
  const preset = h('select', { id: 't-rules' }, presets.map((p) => h('option', { value: p.name, selected: p.name === 'classic' }, p.name)));
  const target = h('input', { id: 't-target', type: 'number', step: '500', min: '500', placeholder: msg('web.tour.presets') });
  const pace = paceField();
  const rated = h('input', { type: 'checkbox', id: 't-rated' });
  const start = h('input', { id: 't-start', type: 'datetime-local' });
  const me = h('input', { type: 'checkbox', id: 't-me', checked: true });
  const nbots = h('input', { id: 't-bots', type: 'number', min: '0', max: '63', value: '3' });
  const level = h('select', { id: 't-level' }, bots.map((b) => h('option', { value: b.name, selected: b.name === 'steady' }, botLevel(b.name))));
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
  h('h2', {}, msg('web.tour.new')),
  h('label', { class: 'field' }, msg('web.tour.name'), name), h('label', { class: 'field' }, msg('web.tour.format'), format, formatNote), h('label', { class: 'field' }, msg('web.tour.size'), size),
  h('label', { class: 'field' }, msg('setup.rules'), preset), h('label', { class: 'field' }, msg('web.tour.target'), target), pace.el,
  h('label', { class: 'field check' }, rated, msg('web.form.rated')),
  h('label', { class: 'field' }, msg('web.tour.start'), start),
  h('label', { class: 'field check' }, me, msg('web.tour.iPlay')),
  h('p', { class: 'row gap' }, h('label', { class: 'field' }, msg('web.tour.bots'), nbots), h('label', { class: 'field' }, msg('web.tour.level'), level)),
  h('button', { type: 'submit', class: 'primary', id: 't-create' }, msg('web.tour.create')), err);
  draw(h('h1', {}, msg('web.tour.title')),
    list.length ? h('ul', { class: 'tables', id: 'tournaments' }, list.map((t) => h('li', { class: 'card row', 'data-id': t.id },
      h('div', { class: 'grow' }, h('a', { href: `/tournaments/${t.id}` }, h('strong', {}, t.name)), h('div', { class: 'muted small' }, `${tourEnd(t.status, t.reason)} · `, summary(t))),
      h('a', { class: 'button', href: `/tournaments/${t.id}` }, msg(t.status === 'open' ? 'web.tour.joinWatch' : 'web.tour.open'))))) : h('p', { class: 'muted' }, msg('web.tour.none')),
    form);
}

// tournamentPage shows one tournament and keeps it up to date every few
// seconds until it is over; it returns the function that stops that.
export async function tournamentPage(id) {
  const put = drawer();
  let timer = null;
  const draw = async () => {
    const t = await api('GET', `/api/tournaments/${id}`);
    const myID = state.me && state.me.id;
    const entered = t.entrants.some((e) => e.player_id === myID);
    const err = h('p', { class: 'error', role: 'alert' });
    const join = t.status === 'open' && !entered ? h('button', { class: 'primary', id: 't-join', onclick: async () => {
      try { await ensurePlayer(); await api('POST', `/api/tournaments/${id}/join`, {}); draw(); } catch (ex) { err.textContent = ex.message; }
    } }, msg('lobby.join')) : '';
    const mineAt = (g) => myID && [g.a, g.b].some((i) => i >= 0 && t.entrants[i] && t.entrants[i].player_id === myID);
    const wins = (g) => g.winner >= 0 ? msg('web.tour.wins', { name: t.entrants[g.winner].name }) : msg('web.tour.drawn');
    // result is a played game's outcome: its winner, or who forfeited it
    // and why (the scores stand beside the names).
    const result = (g) => {
      if (g.forfeit === 'both') return msg(`web.tour.forfeitBoth.${g.why}`);
      if (g.forfeit) return `${msg(`web.tour.forfeit.${g.why}`, { name: g.forfeit === 'a' ? g.a_name : g.b_name })} · ${wins(g)}`;
      return wins(g);
    };
    // side is one player of a game, the name and the score apart, each in
    // its own column: a name never runs into a number.
    const side = (g, i, name, score) => h('div', { class: `tour-side${g.done && g.winner >= 0 && g.winner === i ? ' won' : ''}` },
      h('span', { class: 'tour-name' }, name), h('span', { class: 'tour-score' }, g.done && !g.forfeit ? num(score) : ''));
    const game = (g) => h('li', { class: `tour-game${g.done ? ' done' : ''}${mineAt(g) ? ' mine' : ''}${g.forfeit ? ' forfeit' : ''}`, 'data-table': g.table || '' },
      g.void ? msg('web.tour.void') : g.b < 0 ? msg('web.tour.bye', { name: g.a_name }) : [
        h('div', { class: 'tour-match' }, side(g, g.a, g.a_name, g.pa), side(g, g.b, g.b_name, g.pb)),
        h('div', { class: 'tour-after small' }, g.done ? h('span', { class: 'result' }, result(g)) :
          h('span', { class: 'waiting muted' }, g.pending ? msg('web.tour.waitingTable') : g.waiting_on ? msg('web.tour.waitingOn', { name: g.waiting_on }) : msg('web.tour.starting')),
        ' ', g.table ? h('a', { class: mineAt(g) && !g.done ? 'button primary small play-tour-game' : 'small', href: `/t/${g.table}` }, mineAt(g) && !g.done ? msg('hint.play') : g.done ? msg('end.replay') : msg('lobby.watch')) : '')]);
    put(h('h1', {}, t.name),
      h('p', { class: 'muted', id: 't-status', 'data-status': t.status }, `${tourEnd(t.status, t.reason)} · `, summary(t)),
      t.champion ? h('p', { class: 'champion', id: 't-champion' }, msg('web.tour.winner', { name: t.champion })) : '',
      join, err,
      h('section', { class: 'card' }, h('h2', {}, msg('web.tour.standings')),
        h('div', { class: 'tour-standings' }, h('table', { class: 'stats', id: 't-standings' }, h('thead', {}, h('tr', {}, ['#', 'web.tour.entrant', 'web.tour.played', 'web.tour.won', 'web.tour.drawnCol', 'web.tour.lost', 'web.tour.points', 'web.tour.diff'].map((x) => h('th', {}, x === '#' ? x : msg(x))))),
          h('tbody', {}, t.standings.map((s, i) => h('tr', { class: s.player && s.player === myID ? 'you' : '' },
            h('td', {}, i + 1), h('td', {}, nameEl(s.name, 'span', s.guest)), h('td', {}, s.played), h('td', {}, s.wins), h('td', {}, s.draws), h('td', {}, s.losses, s.forfeits ? h('span', { class: 'muted small' }, ` (${msg('web.tour.byForfeit', { n: s.forfeits })})`) : ''),
            h('td', {}, num(s.for)), h('td', {}, (s.diff > 0 ? '+' : '') + num(s.diff)))))))),
      h('section', { class: 'card', id: 't-rounds' }, h('h2', {}, msg('web.tour.rounds', { n: t.rounds.length, total: t.total_rounds })),
        t.rounds.length ? t.rounds.map((r, k) => h('div', { class: 'tour-round' }, h('h3', {}, msg('web.tour.round', { n: k + 1 })), h('ul', {}, r.map(game)))) :
          h('p', { class: 'muted' }, t.status === 'open' ? msg('web.tour.pairings') : '')));
    if (t.status === 'over' && timer) { clearInterval(timer); timer = null; }
  };
  await draw();
  timer = setInterval(() => { draw().catch(() => {}); }, 3000);
  return () => { if (timer) clearInterval(timer); };
}
