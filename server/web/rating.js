// rating.js: Glicko-2 ratings in the pages: the change at the end of a
// rated game, the leaderboard by rating of each family, and a player's
// rating history as a chart.
import { h, api, playerHref, nameEl } from './ui.js';
import { msg, num } from './i18n.js';

const families = [['farkle', 'Farkle'], ['dragon', 'Dragon Farkle'], ['house', 'web.form.houseRules']];
const familyName = (label) => label.startsWith('web.') ? msg(label) : label;

// A rating is written as a whole number without grouping (1500), in every
// language, as ratings are.
const whole = (x) => String(Math.round(x));
const signed = (x) => (x > 0 ? '+' : x < 0 ? '−' : '±') + whole(Math.abs(x));

// lostOnTime reports whether the clock resigned player's seat at table.
const lostOnTime = (table, player) => (table.seats || []).some((s) => s.player_id === player && s.lost_on_time);

// ratingChange is the end-of-game line of a rated table: each person's
// rating before and after (the bots' ratings are fixed anchors); or why a
// game of a rated family moved none (table.unrated: bots, short,
// aborted); or '' when the game was never to be rated.
export function ratingChange(table, seat) {
  const rs = (table.ratings || []).filter((c) => !c.bot);
  if (!rs.length && table.unrated) {
    return h('p', { class: 'rating-change unrated muted', id: 'rating-change', 'data-unrated': table.unrated }, msg(`web.unrated.${table.unrated}`));
  }
  if (!rs.length) return '';
  const mine = seat >= 0 ? table.seats[seat].player_id : null;
  return h('div', { class: 'rating-change', id: 'rating-change' },
    h('h3', {}, msg('web.rating')),
    h('ul', {}, rs.map((c) => h('li', { class: c.player === mine ? 'mine' : '' },
      h('a', { href: `/players/${encodeURIComponent(c.player)}` }, c.name), ' ',
      `${whole(c.before)} → ${whole(c.after)} `,
      h('strong', { class: c.change >= 0 ? 'up' : 'down', 'data-change': String(c.change) }, `(${signed(c.change)})`),
      lostOnTime(table, c.player) ? h('span', { class: 'lost-on-time small' }, ' · ', msg('web.last.lostOnTime', { name: c.name })) : ''))));
}

let boardAsked = 0; // the tabs chosen so far, to drop late answers

// ratingBoard is the leaderboard by rating with a tab for each family.
// onTab(family), if given, is told of a tab chosen (the leaderboard's
// wins table follows it).
export async function ratingBoard(family = 'farkle', onTab = null) {
  const rows = await api('GET', `/api/ratings?family=${family}`);
  const box = h('section', { class: 'card rating-board', id: 'rating-board' });
  const tabs = h('p', { class: 'row gap', role: 'tablist' }, families.map(([f, label]) => h('button', {
    type: 'button', role: 'tab', class: f === family ? 'small primary' : 'small', 'aria-selected': f === family ? 'true' : 'false',
    onclick: async () => {
      // The latest tab chosen wins: an earlier tab's answer arriving late is
      // dropped, and the board replaced is the one on the page (not this
      // closure's, which an earlier answer may have replaced already).
      const mine = ++boardAsked;
      const next = await ratingBoard(f, onTab);
      if (mine !== boardAsked) return;
      const shown = document.getElementById('rating-board');
      if (shown) shown.replaceWith(next);
      if (onTab) await onTab(f);
    },
  }, familyName(label))));
  box.append(h('h2', {}, msg('web.ratings')), tabs, rows.length ? h('table', { class: 'stats' },
    h('thead', {}, h('tr', {}, ['#', msg('web.player'), msg('web.rating'), msg('web.st.games')].map((x) => h('th', {}, x)))),
    h('tbody', {}, rows.map((r, i) => h('tr', {},
      h('td', {}, i + 1),
      h('td', {}, h('a', { href: playerHref(r.player) }, nameEl(r.name, 'span', r.guest))),
      h('td', { class: 'num', title: msg('web.deviation', { n: Math.round(r.deviation) }) }, `${whole(r.rating)}${r.provisional ? '?' : ''} ± ${whole(2 * r.deviation)}`),
      h('td', { class: 'num' }, num(r.games)))))) : h('p', { class: 'muted' }, msg('web.noRated')));
  return box;
}

const svgNS = 'http://www.w3.org/2000/svg';
function s(tag, attrs, ...kids) {
  const el = document.createElementNS(svgNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const k of kids) el.append(k);
  return el;
}

// ratingChart draws a history of rating changes: the rating after each
// game as a line, inside its band of two deviations.
export function ratingChart(history) {
  const W = 600, H = 220, P = 36;
  const pts = [{ r: history[0].before, d: 350 }].concat(history.map((c) => ({ r: c.after, d: c.deviation })));
  const lo = Math.min(...pts.map((p) => p.r - 2 * Math.min(p.d, 150))), hi = Math.max(...pts.map((p) => p.r + 2 * Math.min(p.d, 150)));
  const x = (i) => P + (i * (W - 2 * P)) / Math.max(1, pts.length - 1);
  const y = (r) => H - P - ((r - lo) * (H - 2 * P)) / Math.max(1, hi - lo);
  const band = pts.map((p, i) => `${x(i)},${y(p.r + 2 * Math.min(p.d, 150))}`).concat(
    pts.map((p, i) => `${x(i)},${y(p.r - 2 * Math.min(p.d, 150))}`).reverse()).join(' ');
  const line = pts.map((p, i) => `${x(i)},${y(p.r)}`).join(' ');
  return s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'rating-chart', id: 'rating-chart', role: 'img', 'aria-label': msg('web.ratingChart', { n: history.length }) },
    s('polygon', { points: band, class: 'band' }),
    s('polyline', { points: line, class: 'line', fill: 'none' }),
    ...pts.map((p, i) => s('circle', { cx: x(i), cy: y(p.r), r: 3, class: 'dot' }, s('title', {}, whole(p.r)))),
    s('text', { x: 4, y: y(hi) + 12, class: 'axis' }, whole(hi)),
    s('text', { x: 4, y: y(lo) - 4, class: 'axis' }, whole(lo)));
}

// ratingSection is a player page's ratings: the current rating of each
// family played and the chart of its history.
export async function ratingSection(id) {
  const all = await Promise.all(families.map(([f]) => api('GET', `/api/players/${encodeURIComponent(id)}/ratings?family=${f}`)));
  const played = all.map((r, i) => [r, families[i][1]]).filter(([r]) => r.rating);
  if (!played.length) return h('p', { class: 'muted' }, msg('web.noRated'));
  return h('div', { class: 'ratings' }, played.map(([r, label]) => h('section', { class: 'card', 'data-family': r.family },
    h('h3', {}, `${familyName(label)}: `, h('span', { class: 'rating-now' }, whole(r.rating.rating)), ` ± ${whole(2 * r.rating.deviation)}`,
      h('span', { class: 'muted small' }, ' · ', msg('web.ratedGames', { n: r.rating.games }))),
    r.history.length ? ratingChart(r.history) : '')));
}
