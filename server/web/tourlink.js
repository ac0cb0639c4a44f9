// tourlink.js: the way back from a tournament's game to its tournament: a
// link naming the tournament, on the game's table page and its replay.
import { h, api } from './ui.js';
import { msg } from './i18n.js';

// names holds, by tournament ID, the promise of its name (null when it
// could not be read): asked once a page, however often the table redraws.
const names = new Map();

// tournamentLink returns the link to the tournament of table t (the API's
// table, with its "tournament"), or nothing for a table of none. It reads
// "Part of a tournament" until the tournament's name comes, then names it.
export function tournamentLink(t) {
  const id = t && t.tournament;
  if (!id) return '';
  if (!names.has(id)) names.set(id, api('GET', `/api/tournaments/${encodeURIComponent(id)}`).then((x) => x.name, () => null));
  const a = h('a', { id: 'tour-back', href: `/tournaments/${encodeURIComponent(id)}` }, msg('web.tour.back'));
  names.get(id).then((name) => { if (name) a.textContent = msg('web.tour.backTo', { name }); });
  return h('p', { class: 'tour-back small' }, a);
}
