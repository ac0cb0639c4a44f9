// players.js: the leaderboard and a player's page (a bot's too).

import { h, api, drawer, go, state, nameEl, playerHref } from './ui.js';
import { reportControl } from './report.js';
import { msg, num, pct, has } from './i18n.js';
import { ratingBoard, ratingSection } from './rating.js';
import { tableList } from './lobby.js';
import { botDescription } from './rulesform.js';
import { botName } from './words.js';

// measures are the figures of a kind of game shown after games, wins and
// the win rate, as catalogue keys and how each is read from a row of
// statistics: the ordinary game's (points per turn, farkles, best turn),
// or Dragon Farkle's (soldiers a game, the most soldiers). The wins table
// and a bot's page show the same.
const measures = (kind) => kind === 'dragon'
  ? [['web.st.soldiers', (r) => num(Math.round(r.score_per_game))], ['web.st.bestSoldiers', (r) => num(r.best_score)]]
  : [['web.st.ppt', (r) => num(Math.round(r.points_per_turn))], ['web.st.farkleRate', (r) => pct(r.farkle_rate)], ['web.st.bestTurn', (r) => num(r.best_turn)]];

// statsTable is the wins table of a kind of game with its measures.
function statsTable(rows, kind) {
  const m = measures(kind);
  return h('table', { class: 'stats leaderboard', 'data-kind': kind },
    h('thead', {}, h('tr', {}, ['#', msg('web.player'), msg('web.st.games'), msg('web.st.wins'), msg('web.st.winRate')].concat(m.map(([k]) => msg(k))).map((x) => h('th', {}, x)))),
    h('tbody', {}, rows.map((r, i) => h('tr', {},
      h('td', {}, i + 1),
      h('td', { class: 'player' }, h('a', { href: playerHref(r.player) }, nameEl(r.name, 'span', r.guest))),
      h('td', {}, num(r.games)), h('td', {}, num(r.wins)), h('td', {}, pct(r.win_rate)),
      m.map(([, f]) => h('td', {}, f(r)))))));
}

// leaderboard is the ratings of each family with, under them, the wins
// table of the tab's kind of game: Dragon Farkle's games under the Dragon
// Farkle tab, the ordinary game's under the others.
export async function leaderboard() {
  const draw = drawer();
  const wins = h('section', { id: 'wins-board' });
  let asked = 0; // the latest tab's table is shown, an earlier one's arriving late is not
  const show = async (family) => {
    const kind = family === 'dragon' ? 'dragon' : 'farkle';
    const mine = ++asked;
    const rows = await api('GET', `/api/leaderboard?kind=${kind}`);
    if (mine !== asked) return;
    wins.replaceChildren(h('h2', {}, msg('web.st.wins')), rows.length ? h('div', { class: 'scroll-x' }, statsTable(rows, kind)) : h('p', { class: 'muted' }, msg('none.finished')));
  };
  await show('farkle');
  const board = await ratingBoard('farkle', show);
  draw(h('h1', {}, msg('nav.leaderboard')), board, wins);
}

// botAbout says how a bot plays, from the server's list of levels, and
// which kind of game it plays: a level not in that list is a Dragon
// Farkle bot's, described by the catalogue (web.dragonBot.LEVEL).
async function botAbout(level) {
  const bots = await api('GET', '/api/bots').catch(() => []);
  const b = bots.find((x) => x.name === level);
  const dragon = !b && has(`web.dragonBot.${level}`);
  const text = b ? botDescription(b) : dragon ? msg(`web.dragonBot.${level}`) : '';
  return { kind: dragon ? 'dragon' : 'farkle', el: text ? h('p', { class: 'lead bot-about', id: 'bot-about' }, text) : '' };
}

// friendBox offers, on another person's page, to follow them (their open
// games then show in the caller's lobby) and to challenge them: a new
// table with a seat kept for them, an invitation they find on their home
// page (docs/API.md, invitations).
async function friendBox(id, name) {
  const me = state.me || await api('GET', '/api/me').catch(() => null);
  if (!me || me.id === id || id.startsWith('bot:')) return '';
  const mine = await api('GET', '/api/me/follows').catch(() => ({ following: [] }));
  let following = mine.following.some((f) => f.player === id);
  const note = h('span', { class: 'muted small', role: 'status', id: 'friend-note' });
  const follow = h('button', { type: 'button', id: 'follow', onclick: async () => {
    follow.disabled = true;
    try {
      await (following ? api('DELETE', `/api/me/follows/${encodeURIComponent(id)}`) : api('POST', '/api/me/follows', { player: id }));
      following = !following;
      note.textContent = msg(following ? 'web.friend.followed' : 'web.friend.unfollowed', { name });
    } catch (ex) { note.textContent = ex.message; }
    follow.disabled = false;
    follow.textContent = msg(following ? 'web.friend.unfollow' : 'web.friend.follow');
  } }, msg(following ? 'web.friend.unfollow' : 'web.friend.follow'));
  const challenge = h('button', { type: 'button', class: 'primary', id: 'challenge', onclick: async () => {
    challenge.disabled = true;
    try {
      const t = await api('POST', '/api/tables', { rules: 'classic', seats: [{ type: 'me' }, { type: 'invite', player: id }] });
      go(`/t/${t.id}`);
    } catch (ex) { note.textContent = ex.message; challenge.disabled = false; }
  } }, msg('web.friend.challenge'));
  return h('p', { class: 'row gap friend-box' }, challenge, follow, note);
}

// playerPage is a player's page: its figures, ratings and games. A
// Dragon Farkle bot's figures are Dragon Farkle's (soldiers, not points).
export async function playerPage(id) {
  const draw = drawer();
  const s = await api('GET', `/api/players/${encodeURIComponent(id)}/stats`);
  const bot = id.startsWith('bot:') ? id.slice(4) : '';
  const about = bot ? await botAbout(bot) : { kind: 'farkle', el: await friendBox(id, s.name) };
  const tiles = [['web.st.games', (r) => num(r.games)], ['web.st.wins', (r) => num(r.wins)], ['web.st.winRate', (r) => pct(r.win_rate)]].concat(measures(about.kind));
  const ratings = await ratingSection(id);
  draw(h('h1', {}, nameEl(s.name || (bot ? botName(bot) : msg('web.player')), 'span', s.guest)), about.el,
    !bot && state.me && state.me.id !== id ? h('p', { id: 'report-player' }, reportControl({ player: id }, msg('web.report.player'))) : '',
    h('div', { class: 'tiles', 'data-kind': about.kind }, tiles.map(([k, f]) => h('div', { class: 'tile' }, h('div', { class: 'tile-v' }, f(s)), h('div', { class: 'muted small' }, msg(k))))),
    h('h2', {}, msg('web.ratings')), ratings,
    h('h2', {}, msg('web.st.games')),
    tableList(s.history, msg('none.finished'), (t) => h('a', { class: 'button', href: `/replay/${t.id}` }, msg('end.replay'))));
}
