// notify.js: a browser notification when it becomes the player's move in
// a game at their own pace while this tab is hidden. It is off until the
// player turns it on in the settings, which asks the browser's permission
// then (a click: browsers ask only on a gesture); the choice is kept in
// this browser. The tab's count of games waiting on the player (pace.js)
// asks the server every 30 s and hands each answer to noteMoves.
import { msg } from './i18n.js';

const KEY = 'farkle.notify';

// supported reports whether the browser can show notifications at all.
export const notifySupported = () => typeof Notification === 'function';

// notifyOn reports whether the player turned notifications on and the
// browser still allows them.
export function notifyOn() {
  let on = false;
  try { on = localStorage.getItem(KEY) === 'on'; } catch { /* no storage: off */ }
  return on && notifySupported() && Notification.permission === 'granted';
}

// setNotify turns notifications on (asking the browser's permission, so
// call it from a click) or off; it returns whether they are on.
export async function setNotify(on) {
  if (on && notifySupported() && Notification.permission !== 'granted') {
    try { await Notification.requestPermission(); } catch { /* refused */ }
  }
  on = on && notifySupported() && Notification.permission === 'granted';
  try { localStorage.setItem(KEY, on ? 'on' : 'off'); } catch { /* this page only */ }
  return on;
}

// waiting holds the own-pace games waiting on the player at the last
// answer (null before the first: games already waiting when the page
// opened are no news).
let waiting = null;

// noteMoves reads the player's open games (GET /api/me/games) and shows a
// notification for each game at the player's own pace that has become
// theirs to move since the last answer, when the tab is hidden.
export function noteMoves(games) {
  const now = new Set(games.filter((g) => g.your_move && g.pace && !g.invited).map((g) => g.id));
  const before = waiting;
  waiting = now;
  if (!before || !document.hidden || !notifyOn()) return;
  for (const g of games) {
    if (!now.has(g.id) || before.has(g.id)) continue;
    const others = g.seats.filter((s, i) => i !== g.seat).map((s) => s.name).join(', ');
    try {
      const n = new Notification(msg('web.notify.title'), { body: g.last || msg('web.notify.body', { names: others }), tag: `farkle-move-${g.id}`, icon: '/static/icons/icon-192.png' });
      n.addEventListener('click', () => { window.focus(); location.assign(`/t/${g.id}`); n.close(); });
    } catch { /* a browser that shows notifications only from a service worker */ }
  }
}
