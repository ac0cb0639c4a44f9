// players.js: the leaderboard and a player's page (a bot's too).

// botName is a bot's name from its level, as the server names it (Steady bot).
const botName = (level) => msg('web.botNamed', { level: level[0].toUpperCase() + level.slice(1) });
import { h, api, page, go, state, nameEl, playerHref } from './ui.js';
import { reportControl } from './report.js';
import { msg, num, pct, has } from './i18n.js';
import { ratingBoard, ratingSection } from './rating.js';
import { tableList } from './lobby.js';
import { botDescription } from './rulesform.js';

// statsTable is the wins table of a kind of game: the ordinary game's
// measures (points per turn, farkles, best turn), or Dragon Farkle's
// (soldiers a game, the most soldiers).
function statsTable(rows, kind) {
  const dragon = kind === 'dragon';
  const heads = dragon ? ['web.st.soldiers', 'web.st.bestSoldiers'] : ['web.st.ppt', 'web.st.farkleRate', 'web.st.bestTurn'];
  const cells = (r) => dragon ? [num(Math.round(r.score_per_game)), num(r.best_score)] : [num(Math.round(r.points_per_turn)), pct(r.farkle_rate), num(r.best_turn)];
  return h('table', { class: 'stats leaderboard', 'data-kind': kind },
    h('thead', {}, h('tr', {}, ['#', msg('web.player'), msg('web.st.games'), msg('web.st.wins'), msg('web.st.winRate')].concat(heads.map((k) => msg(k))).map((x) => h('th', {}, x)))),
    h('tbody', {}, rows.map((r, i) => h('tr', {},
      h('td', {}, i + 1),
      h('td', { class: 'player' }, h('a', { href: playerHref(r.player) }, nameEl(r.name, 'span', r.guest))),
      h('td', {}, num(r.games)), h('td', {}, num(r.wins)), h('td', {}, pct(r.win_rate)),
      cells(r).map((c) => h('td', {}, c))))));
}

// leaderboard is the ratings of each family with, under them, the wins
// table of the tab's kind of game: Dragon Farkle's games under the Dragon
// Farkle tab, the ordinary game's under the others.
export async function leaderboard() {
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
  page(h('h1', {}, msg('nav.leaderboard')), await ratingBoard('farkle', show), wins);
}

// botAbout says how a bot plays, from the server's list of levels.
// A Dragon Farkle bot is described by the catalogue (web.dragonBot.LEVEL).
async function botAbout(level) {
  const bots = await api('GET', '/api/bots').catch(() => []);
  const b = bots.find((x) => x.name === level);
  const text = b ? botDescription(b) : has(`web.dragonBot.${level}`) ? msg(`web.dragonBot.${level}`) : '';
  return text ? h('p', { class: 'lead bot-about', id: 'bot-about' }, text) : '';
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

export async function playerPage(id) {
  const s = await api('GET', `/api/players/${encodeURIComponent(id)}/stats`);
  const bot = id.startsWith('bot:') ? id.slice(4) : '';
  page(h('h1', {}, nameEl(s.name || (bot ? botName(bot) : msg('web.player')), 'span', s.guest)), bot ? await botAbout(bot) : await friendBox(id, s.name),
    !bot && state.me && state.me.id !== id ? h('p', { id: 'report-player' }, reportControl({ player: id }, msg('web.report.player'))) : '',
    h('div', { class: 'tiles' },
      [[msg('web.st.games'), num(s.games)], [msg('web.st.wins'), num(s.wins)], [msg('web.st.winRate'), pct(s.win_rate)], [msg('web.st.ppt'), num(Math.round(s.points_per_turn))],
        [msg('web.st.farkleRate'), pct(s.farkle_rate)], [msg('web.st.bestTurn'), num(s.best_turn)]].map(([k, v]) => h('div', { class: 'tile' }, h('div', { class: 'tile-v' }, v), h('div', { class: 'muted small' }, k)))),
    h('h2', {}, msg('web.ratings')), await ratingSection(id),
    h('h2', {}, msg('web.st.games')),
    tableList(s.history, msg('none.finished'), (t) => h('a', { class: 'button', href: `/replay/${t.id}` }, msg('end.replay'))));
}
