// lobby.js: the lists of tables: the lobby (waiting, playing, stopped)
// and the history of finished games.
import { h, api, drawer, nameEl, rulesName, playerHref } from './ui.js';
import { msg, num } from './i18n.js';
import { duration } from './duration.js';

export function tableList(tables, empty, action) {
  if (!tables.length) return h('p', { class: 'muted' }, empty);
  return h('ul', { class: 'tables' }, tables.map((t) => h('li', { class: 'card row' },
    h('div', { class: 'grow' },
      h('strong', { class: 'seats-line' }, t.seats.flatMap((s, i) => [i ? msg('web.vs') : '', s.free && s.invited ? msg('web.seatKeptFor', { name: s.name }) : s.free ? msg('web.freeSeat') : nameEl(s.name, 'span', s.guest)])),
      // A game played on a device by itself and kept afterwards (local.js).
      t.local ? h('span', { class: 'tag local-mark' }, msg('web.local.mark')) : '',
      h('div', { class: 'muted small' }, t.kind === 'dragon' ? `Dragon Farkle · ${msg('web.actions', { n: t.actions })}` : `${rulesName(t.rules)} · ${msg('web.to', { n: num(t.rules.game.target) })} · ${msg('web.actions', { n: t.actions })}`,
        t.scores ? ` · ${t.scores.map(num).join('–')}` : '',
        (t.winners || []).length ? ` · ${msg('web.wonBy', { names: t.winners.map((w) => t.seats[w].name).join(msg('end.and')) })}` : '',
        t.seats.filter((s) => s.lost_on_time).map((s) => ` · ${msg('web.last.lostOnTime', { name: s.name })}`).join(''),
        t.clock ? ` · ${msg('web.toActFor', { t: duration(t.clock.seconds) })}` : ''),
      t.reason ? h('div', { class: 'reason small' }, msg(t.status === 'expired' ? 'web.reasonExpired' : 'web.reasonFailed', { why: t.reason })) : ''),
    action(t))));
}

// openToAll reports whether a waiting table has a seat anyone may take:
// a seat kept for an invited player is not offered in the lobby (the
// invitation reaches them on their own page).
const openToAll = (t) => t.seats.some((s) => s.free && !s.invited);

export async function lobby() {
  const draw = drawer();
  draw(h('h1', {}, msg('nav.lobby')), h('p', { class: 'muted' }, msg('web.loading')));
  const [waiting, playing, failed] = await Promise.all([api('GET', '/api/tables?status=waiting'), api('GET', '/api/tables?status=playing'),
    api('GET', '/api/tables?status=failed&limit=10')]);
  const friends = await friendsSection();
  draw(h('h1', {}, msg('nav.lobby')),
    friends,
    h('h2', {}, msg('wait.title')),
    tableList(waiting.filter(openToAll), msg('lobby.none'), (t) => h('a', { class: 'button primary', href: `/t/${t.id}` }, msg('lobby.join'))),
    h('h2', {}, msg('lobby.playing')),
    tableList(playing, msg('lobby.noGame'), (t) => h('a', { class: 'button', href: `/t/${t.id}` }, msg('lobby.watch'))),
    failed.length ? h('h2', {}, msg('web.stoppedByServer')) : '',
    failed.length ? tableList(failed, '', (t) => h('a', { class: 'button', href: `/api/tables/${t.id}/record`, download: `farkle-${t.id}.json` }, msg('web.record'))) : '',
    h('p', {}, h('a', { class: 'button primary', href: '/new' }, msg('lobby.create'))));
}

// friendsSection lists the players the caller follows and their open
// games (GET /api/me/follows), or nothing when it follows nobody.
async function friendsSection() {
  const f = await api('GET', '/api/me/follows').catch(() => null); // null without a player
  if (!f || !f.following.length) return '';
  return h('section', { id: 'friends' }, h('h2', {}, msg('web.friend.title')),
    h('p', { class: 'friend-names' }, f.following.flatMap((p, i) => [i ? ', ' : '', h('a', { href: playerHref(p.player) }, nameEl(p.name, 'span', p.guest))])),
    tableList(f.games, msg('web.friend.noGames'), (t) => h('a', { class: 'button', href: `/t/${t.id}` }, msg(t.status === 'waiting' && openToAll(t) ? 'lobby.join' : 'lobby.watch'))));
}

export async function historyPage() {
  const draw = drawer();
  const over = await api('GET', '/api/tables?status=over');
  draw(h('h1', {}, msg('history.title')),
    tableList(over, msg('none.finished'), (t) => h('span', { class: 'actions' },
      h('a', { class: 'button', href: `/replay/${t.id}` }, msg('end.replay')),
      h('a', { class: 'button', href: `/api/tables/${t.id}/record`, download: `${t.kind || 'farkle'}-${t.id}.json` }, msg('web.record')))));
}
