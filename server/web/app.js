// app.js: the router of the Farkle web game (no build step; ES modules):
// it shows the page of the address. It imports the pages; no page imports
// it (they navigate through ui.js's go, which the router listens for).
import { h, api, loadMe, go, beginRoute, drawer, ROUTE_EVENT } from './ui.js';
import { msg, lang, langSwitch } from './i18n.js';
import { home } from './home.js';
import { lobby, historyPage } from './lobby.js';
import { leaderboard, playerPage } from './players.js';
import { replayPage } from './replay.js';
import { tablePage } from './table.js';
import { newTablePage } from './rulesform.js';
import { dragonPage } from './dragon.js';
import { accountPage, signInPage } from './account.js';
import { startTitleCount } from './pace.js';
import { tournamentsPage, tournamentPage } from './tournament.js';
import { localPage, syncUploads } from './local.js';
import { moderatePage } from './moderate.js';
import { settingsPage } from './settings.js';
import './motion.js';
import './pwa.js';

let cleanup = null;

// route shows the page of the address. A page the player left before it
// was drawn (its answers late) draws nothing (ui.js: drawer); its
// cleanup, if it has one, runs when it is done.
async function route() {
  if (cleanup) { cleanup(); cleanup = null; }
  beginRoute();
  const draw = drawer();
  const done = await show(location.pathname, draw);
  if (draw.current()) cleanup = done;
  else if (done) done();
}

// show draws the page of path (with draw, for what it draws itself) and
// returns its cleanup, if any.
async function show(p, draw) {
  let m;
  try {
    if (p === '/') await home();
    else if (p === '/new') newTablePage();
    else if (p === '/lobby') await lobby();
    else if (p === '/history') await historyPage();
    else if (p === '/leaderboard') await leaderboard();
    else if (p === '/account') await accountPage();
    else if (p === '/signin') signInPage();
    else if (p === '/settings') settingsPage();
    else if (p === '/local') return await localPage();
    else if (p === '/moderate') await moderatePage();
    else if (p === '/tournaments') await tournamentsPage();
    else if ((m = p.match(/^\/tournaments\/([\w-]+)$/))) return await tournamentPage(m[1]);
    else if ((m = p.match(/^\/t\/([\w-]+)$/))) {
      const t = await api('GET', `/api/tables/${m[1]}`);
      if (!draw.current()) return null; // left meanwhile: no connection opened
      return t.kind === 'dragon' ? dragonPage(m[1]) : tablePage(m[1]);
    }
    else if ((m = p.match(/^\/replay\/([\w-]+)$/))) await replayPage(m[1]);
    else if ((m = p.match(/^\/players\/((?:bot(?::|%3A))?[\w-]+)$/i))) await playerPage(decodeURIComponent(m[1])); // a bot's page: /players/bot:LEVEL
    else draw(h('h1', {}, msg('web.notFound')), h('p', {}, h('a', { href: '/' }, msg('web.home'))));
  } catch (ex) {
    // Offline, a page of the server's cannot be had: the phone's games can.
    if (!navigator.onLine) {
      draw(h('section', { class: 'local' }, h('h1', {}, msg('web.offline.title')), h('p', { class: 'lead local-lead', id: 'offline-page' }, msg('web.offline.page')),
        h('p', {}, h('a', { class: 'button primary big', id: 'play-local', href: '/local' }, msg('web.local.play')))));
    } else draw(h('h1', {}, msg('web.wrong')), h('p', { class: 'error' }, ex.message));
  }
  return null;
}

document.addEventListener('click', (e) => {
  const a = e.target.closest('a');
  if (!a || a.target || a.hasAttribute('download') || e.ctrlKey || e.metaKey || e.shiftKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith('/api/') || url.pathname.startsWith('/static/') || url.pathname === '/explore') return; // the explorer is a page of its own
  e.preventDefault();
  go(url.pathname + url.search);
});
window.addEventListener('popstate', route);
window.addEventListener(ROUTE_EVENT, route);

// The page's own texts in its language, and the switch between languages.
function localize() {
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll('[data-msg]')) el.textContent = msg(el.dataset.msg);
  for (const el of document.querySelectorAll('[data-msg-label]')) el.title = el.ariaLabel = msg(el.dataset.msgLabel);
  document.getElementById('lang-switch').replaceChildren(langSwitch());
}

localize();
loadMe().then(() => {
  // The header is shown once its words and player are in, the page once
  // the route's page is drawn (style.css: html.top-ready, html.ready; at
  // most 1.5 s).
  document.documentElement.classList.add('top-ready');
  route().finally(() => document.documentElement.classList.add('ready'));
  startTitleCount();
  syncUploads();
});
