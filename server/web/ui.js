// ui.js: what every page of the web game builds with: elements, the API,
// the browser's player, the page's frame and navigation. It imports no
// page, so the pages and the router (app.js) import it without a circle.
import { msg, errText, date } from './i18n.js';

// h builds an element: h('p', {class: 'x'}, 'text', child...). Text is
// always set as text, never as HTML, so names are escaped everywhere.
export function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v == null) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const k of kids.flat()) {
    if (k == null || k === false) continue;
    el.appendChild(typeof k === 'string' || typeof k === 'number' ? document.createTextNode(String(k)) : k);
  }
  return el;
}

// api calls the REST API and throws an Error carrying the server's message
// and field. Every request but a GET says it is JSON: the server refuses a
// POST that does not.
export async function api(method, path, body) {
  const opt = { method, headers: {} };
  if (method !== 'GET') opt.headers['Content-Type'] = 'application/json';
  if (body !== undefined) opt.body = JSON.stringify(body);
  let resp;
  try {
    resp = await fetch(path, opt);
  } catch (ex) { // no answer at all (offline, the server down): said in the page's language, not the browser's
    const err = new Error(msg('err.network'));
    err.cause = ex; err.network = true;
    throw err;
  }
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok) {
    const err = new Error(data.sanction ? sanctionText(data.sanction) : errText(data.code, data.field, data.error || msg('err.http', { status: resp.status })));
    err.serverText = data.error;
    err.field = data.field; err.status = resp.status; err.code = data.code;
    throw err;
  }
  return data;
}

export const state = { me: null };

// nameEl shows a player's name on one line, clipped to its box: however
// long, or however many marks a character carries, it never runs over the
// lines around it.
// A guest (guest true) is marked "(guest)", so that a guest is told from
// an account, or from another guest, of the same name.
export function nameEl(name, tag = 'span', guest = false) {
  return h(tag, { class: guest ? 'name guest' : 'name', title: name }, name, guest ? h('span', { class: 'guest-tag muted' }, ` ${msg('web.guestTag')}`) : '');
}

// playerHref is the address of a player's page: a bot's is
// /players/bot:LEVEL, written as it reads.
export function playerHref(key) {
  return key.startsWith('bot:') ? `/players/bot:${encodeURIComponent(key.slice(4))}` : `/players/${encodeURIComponent(key)}`;
}

// rulesName is the name a rule set is shown by: house rules have one even
// when nobody gave them a name.
export function rulesName(r) {
  return r && r.name && !/^house rules$/i.test(r.name) ? r.name : msg('web.houseRules'); // the server names a rule set sent without a name 'house rules'; an English page, 'House rules'
}

// loadMe reads the browser's guest: /api/me answers null (200) when there
// is none yet. When the server cannot say (no answer, an error), the
// header says so with a button to try again, rather than offering to sign
// in a player who may well be signed in: "not connected" when nothing
// answered, "server error" when the server answered with an error (its
// text in the tooltip), as the browser is connected then.
export async function loadMe() {
  let failed = null;
  try { state.me = await api('GET', '/api/me'); } catch (ex) { state.me = null; failed = ex; }
  const span = document.getElementById('me');
  showNotices(state.me ? state.me.notices : null);
  if (failed) {
    span.replaceChildren(h('span', { class: 'me-error small', id: 'me-error', role: 'alert', title: failed.message }, msg(failed.network ? 'web.meFailed' : 'web.meServerFailed')), ' ',
      h('button', { id: 'me-retry', class: 'small', type: 'button', onclick: () => location.reload() }, msg('web.pace.retry')));
    return null;
  }
  span.replaceChildren(...(state.me ? [h('a', { href: `/players/${encodeURIComponent(state.me.id)}` }, nameEl(state.me.name)), ' ',
    state.me.moderator ? h('a', { href: '/moderate', id: 'moderate-link', class: 'small' }, msg('web.mod.nav')) : '', state.me.moderator ? ' ' : '',
    h('a', { href: '/account', id: 'account-link', class: 'small' }, msg(state.me.account ? 'web.account' : 'web.keepPlayer')), ' ',
    h('button', { id: 'sign-out', class: 'small', type: 'button', onclick: signOut }, msg('me.signout'))] : [h('a', { href: '/signin', id: 'signin-link' }, msg('web.signin'))]));
  return state.me;
}

// sanctionText says a mute or a ban of this player (the server's
// sanction: kind, until, reason) in the page's language.
export function sanctionText(x) {
  const vars = { reason: x.reason, until: x.until ? date(x.until) : '' };
  return msg(`web.mod.you.${x.kind === 'ban' ? 'banned' : 'muted'}${x.until ? 'Until' : ''}`, vars);
}

// showNotices shows the moderators' notices to this player (a new name)
// above the page, each until it is acknowledged (then the server no
// longer sends it).
export function showNotices(notices) {
  let box = document.getElementById('notices');
  if (!box) {
    box = h('div', { id: 'notices', class: 'notices', role: 'status' });
    document.body.insertBefore(box, document.getElementById('main'));
  }
  for (const n of notices || []) {
    if (box.querySelector(`[data-notice="${n.id}"]`)) continue;
    const el = h('p', { class: 'banner notice', 'data-notice': String(n.id) },
      msg('web.mod.you.renamed', { old: n.old_name, name: n.new_name, reason: n.reason }), ' ',
      h('button', { type: 'button', class: 'small', onclick: async () => {
        try { await api('POST', `/api/me/notices/${n.id}/seen`, {}); el.remove(); } catch (ex) { el.append(' ', ex.message); }
      } }, msg('web.mod.you.ok')));
    box.append(el);
  }
}

// signOut makes the browser forget its guest, after asking: the cookie is
// the only key to that player, its seats and its stats.
async function signOut() {
  if (!state.me) return;
  if (!state.me.account && !confirm(msg('web.signoutAsk', { name: state.me.name }))) return;
  await api('POST', '/api/signout');
  await loadMe();
  rerender();
}

// ensurePlayer makes sure the browser has a guest, named name if it has
// none yet. An existing guest is kept whatever the name field says (the
// field shows it, read-only): only "Sign out" leaves it.
export async function ensurePlayer(name) {
  if (state.me) return state.me;
  try {
    await api('POST', '/api/players', { name: name || randomName() });
  } catch (ex) {
    if (ex.status !== 409) throw ex; // 409: this browser has a guest already (signed in from another tab)
  }
  return loadMe();
}

function randomName() {
  return msg('web.guest', { n: Math.floor(100 + Math.random() * 900) });
}

// go opens path as a link of the site does: the address changes and the
// router (app.js) shows its page.
export function go(path) {
  history.pushState(null, '', path);
  rerender();
}

// rerender shows the page of the address again. The router listens for
// the event, so that no page imports the router that imports the pages.
export function rerender() {
  window.dispatchEvent(new Event(ROUTE_EVENT));
}

// ROUTE_EVENT is the event on window that asks the router for the page of
// the current address.
export const ROUTE_EVENT = 'farkle:route';

const main = () => document.getElementById('main');

export function page(...kids) {
  const m = main();
  m.replaceChildren(...kids);
  m.focus({ preventScroll: true });
}

// routes counts the pages the router has begun to show (beginRoute).
let routes = 0;

// beginRoute tells that the router begins to show the page of the address.
export function beginRoute() { routes++; }

// drawer returns page for the page being shown now: once the router has
// begun another, it draws nothing. A page that waits for answers before
// it draws (or draws again later) takes its drawer first, so that a late
// answer never draws it over the page the player went to meanwhile (the
// header's links work at once). draw.current() says whether it still
// would.
export function drawer() {
  const my = routes;
  const draw = (...kids) => { if (my === routes) page(...kids); };
  draw.current = () => my === routes;
  return draw;
}


// nameField is the display-name input shared by the home and join forms.
// Once the browser has a guest the field shows its name, read-only.
export function nameField(id) {
  return h('label', { class: 'field' }, msg('home.name'),
    h('input', { id, name: 'name', maxlength: '24', autocomplete: 'nickname', placeholder: msg('web.guestWord'), value: state.me ? state.me.name : '',
      readonly: !!state.me, title: state.me ? msg('web.nameFixed') : false }));
}
