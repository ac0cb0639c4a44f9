// account.js: accounts without passwords. A guest keeps its player by
// adding a passkey (WebAuthn), signs in with it on other devices, and
// keeps a one-time recovery code for the day its passkeys are gone.
import { h, api, page, drawer, state, loadMe, go, ensurePlayer } from './ui.js';
import { msg, date } from './i18n.js';

// passkeysSupported says whether this browser can make and use passkeys
// from the server's JSON options.
function passkeysSupported() {
  return !!(window.PublicKeyCredential && PublicKeyCredential.parseCreationOptionsFromJSON && PublicKeyCredential.parseRequestOptionsFromJSON);
}

// addPasskey runs the ceremony that adds a passkey (and, for a guest,
// makes the account under name); it returns the server's answer.
export async function addPasskey(name, label) {
  const opts = await api('POST', '/api/account/passkeys/begin', { name: name || undefined, label: label || undefined });
  const cred = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(opts.publicKey) });
  return api('POST', '/api/account/passkeys/finish', { ceremony: opts.ceremony, credential: cred.toJSON() });
}

// signInWithPasskey runs the sign-in ceremony with any passkey of this site.
export async function signInWithPasskey() {
  const b = await api('POST', '/api/account/signin/begin');
  const a = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(b.publicKey) });
  return api('POST', '/api/account/signin/finish', { ceremony: b.ceremony, credential: a.toJSON() });
}

// recoveryBox shows a recovery code once, with what it is for.
// copyCode puts the recovery code on the clipboard, or, where the page may
// not, selects it for the player to copy; the line beside the button says
// which.
async function copyCode(code) {
  const said = document.getElementById('recovery-copied');
  try {
    await navigator.clipboard.writeText(code);
    said.textContent = msg('web.acc.copied');
  } catch {
    getSelection().selectAllChildren(document.getElementById('recovery-code'));
    said.textContent = msg('web.acc.copySelected');
  }
}

function recoveryBox(code) {
  return h('section', { class: 'card recovery', id: 'recovery', role: 'alert' },
    h('h2', {}, msg('web.acc.recovery')),
    h('p', { class: 'mono recovery-code', id: 'recovery-code' }, code),
    h('p', { class: 'row gap' }, h('button', { type: 'button', id: 'recovery-copy', onclick: () => copyCode(code) }, msg('web.acc.copy')),
      h('span', { class: 'muted small', id: 'recovery-copied', role: 'status' })),
    h('p', {}, msg('web.acc.recoveryWhy')),
    h('button', { type: 'button', class: 'primary', id: 'recovery-saved', onclick: () => go('/account') }, msg('web.acc.saved')));
}

const fmtDate = (s) => date(s);

// keyLabel is a passkey's label in the page's language: the server names a
// passkey given no label "Passkey N" (English, as the API keeps its words),
// which reads here as the page's word for it; a label the player chose
// stays as it is.
function keyLabel(label) {
  const m = /^Passkey (\d+)$/.exec(label || '');
  return m ? msg('web.acc.passkeyN', { n: Number(m[1]) }) : label;
}

// sessionsCard lists the account's sessions (the devices signed in),
// each with a button that ends it, and "sign out everywhere else".
function sessionsCard(a, fail) {
  const note = h('p', { class: 'muted small', id: 'sessions-note', role: 'status' });
  const list = h('ul', { class: 'sessions', id: 'sessions' }, a.sessions.map((x) => h('li', { 'data-id': x.id, class: x.current ? 'current' : '' },
    h('strong', {}, x.device || msg('web.acc.unknownDevice')),
    h('span', { class: 'muted small' }, ` ${msg('web.acc.signedIn', { at: fmtDate(x.created) })} · ${msg('web.acc.seen', { at: fmtDate(x.last_seen) })} `),
    x.current ? h('span', { class: 'badge' }, msg('web.acc.thisDevice')) : h('button', { type: 'button', class: 'small end-session', onclick: async () => {
      try { await api('DELETE', `/api/account/sessions/${encodeURIComponent(x.id)}`); accountPage(); } catch (ex) { fail(ex); }
    } }, msg('me.signout')))));
  return h('section', { class: 'card' },
    h('h2', {}, msg('web.acc.sessions')), list,
    h('p', { class: 'row gap' }, h('button', { type: 'button', id: 'signout-everywhere', disabled: a.sessions.length < 2, onclick: async () => {
      if (!confirm(msg('web.acc.everywhereAsk'))) return;
      try {
        const r = await api('POST', '/api/account/signout-everywhere', {});
        await accountPage();
        const n = document.getElementById('sessions-note');
        if (n) n.textContent = msg('web.acc.ended', { n: r.ended });
      } catch (ex) { fail(ex); }
    } }, msg('web.acc.everywhere'))), note);
}

// accountPage shows the player's account: for a guest, how to keep it;
// for an account, its passkeys and its sessions.
export async function accountPage() {
  const draw = drawer();
  const err = h('p', { class: 'error', role: 'alert', id: 'account-error' });
  const fail = (ex) => { err.textContent = ex.name === 'NotAllowedError' ? msg('web.acc.notMade') : ex.message; };
  if (!passkeysSupported()) err.textContent = msg('web.acc.noPasskeys');
  if (!state.me) { // no player yet: an account made here directly (a guest first, kept at once)
    const name = h('input', { id: 'account-name', name: 'name', maxlength: '24', autocomplete: 'username', required: true });
    draw(h('h1', {}, msg('web.acc.new')),
      h('section', { class: 'card' },
        h('p', {}, msg('web.acc.newWhy')),
        h('form', { onsubmit: async (e) => {
          e.preventDefault();
          err.textContent = '';
          try {
            await ensurePlayer(name.value.trim());
            const r = await addPasskey(name.value.trim());
            await loadMe();
            draw(h('h1', {}, msg('web.acc.welcome', { name: r.name })), recoveryBox(r.recovery_code));
          } catch (ex) { fail(ex); }
        } }, h('label', { class: 'field' }, msg('web.acc.nameUnique'), name),
        h('button', { type: 'submit', class: 'primary', id: 'create-account' }, msg('web.acc.create')), err)),
      h('p', {}, msg('web.acc.haveOne'), ' ', h('a', { href: '/signin', id: 'to-signin' }, msg('web.signin'))));
    return;
  }
  const a = await api('GET', '/api/account');
  if (!a.account) {
    const name = h('input', { id: 'account-name', name: 'name', maxlength: '24', value: a.name, autocomplete: 'username' });
    draw(h('h1', {}, msg('web.acc.keep')),
      h('section', { class: 'card' },
        h('p', {}, msg('web.acc.guest', { name: a.name })),
        h('form', { onsubmit: async (e) => {
          e.preventDefault();
          err.textContent = '';
          try {
            const r = await addPasskey(name.value.trim());
            await loadMe();
            draw(h('h1', {}, msg('web.acc.welcome', { name: r.name })), recoveryBox(r.recovery_code));
          } catch (ex) { fail(ex); }
        } }, h('label', { class: 'field' }, msg('web.acc.nameUnique'), name),
        h('button', { type: 'submit', class: 'primary', id: 'create-account' }, msg('web.acc.create')), err)));
    return;
  }
  const list = h('ul', { class: 'passkeys', id: 'passkeys' }, a.passkeys.map((k) => h('li', { 'data-id': k.id },
    h('strong', {}, keyLabel(k.label)), h('span', { class: 'muted small' }, ` ${msg('web.acc.added', { at: fmtDate(k.created) })}${k.used ? ` · ${msg('web.acc.used', { at: fmtDate(k.used) })}` : ''} `),
    h('button', { type: 'button', class: 'small remove-passkey', disabled: a.passkeys.length < 2, title: a.passkeys.length < 2 ? msg('web.acc.keepOne') : false,
      onclick: async () => {
        if (!confirm(msg('web.acc.removeAsk', { label: keyLabel(k.label) }))) return;
        try { await api('DELETE', `/api/account/passkeys/${encodeURIComponent(k.id)}`); accountPage(); } catch (ex) { fail(ex); }
      } }, msg('web.acc.remove')))));
  draw(h('h1', {}, a.name),
    h('section', { class: 'card' },
      h('h2', {}, msg('web.acc.passkeys')), list,
      h('p', { class: 'row gap' },
        h('button', { type: 'button', id: 'add-passkey', onclick: async () => {
          err.textContent = '';
          try { await addPasskey(); accountPage(); } catch (ex) { fail(ex); }
        } }, msg('web.acc.add')),
        h('a', { class: 'button', href: `/players/${encodeURIComponent(a.id)}` }, msg('web.acc.games'))),
      err),
    sessionsCard(a, fail));
}

// signInPage signs in with a passkey or a recovery code. A guest of this
// browser that is no account is forgotten by it: the page says so.
export function signInPage() {
  const draw = drawer();
  const err = h('p', { class: 'error', role: 'alert', id: 'signin-error' });
  const done = async (r) => {
    await loadMe();
    if (r.recovery_code) draw(h('h1', {}, msg('web.acc.welcomeBack', { name: r.name })), h('p', {}, msg('web.acc.usedUp')), recoveryBox(r.recovery_code));
    else go('/');
  };
  const name = h('input', { id: 'recover-name', name: 'name', maxlength: '24', autocomplete: 'username' });
  const code = h('input', { id: 'recover-code', name: 'code', autocomplete: 'one-time-code', class: 'mono', placeholder: 'XXXXX-XXXXX-XXXXX-XXXXX' });
  const guest = state.me && !state.me.account;
  page(h('h1', {}, msg('web.signin')),
    guest ? h('p', { class: 'card warn' }, msg('web.acc.replaces', { name: state.me.name })) : '',
    h('section', { class: 'card' },
      h('button', { type: 'button', class: 'big primary', id: 'signin-passkey', disabled: !passkeysSupported(), onclick: async () => {
        err.textContent = '';
        try { await done(await signInWithPasskey()); } catch (ex) { err.textContent = ex.name === 'NotAllowedError' ? msg('web.acc.noneUsed') : ex.message; }
      } }, msg('web.acc.signinPasskey')), err),
    h('section', { class: 'card' },
      h('h2', {}, msg('web.acc.lost')),
      h('form', { id: 'recover-form', onsubmit: async (e) => {
        e.preventDefault();
        err.textContent = '';
        try { await done(await api('POST', '/api/account/recover', { name: name.value.trim(), code: code.value.trim() })); } catch (ex) { err.textContent = ex.message; }
      } }, h('label', { class: 'field' }, msg('web.acc.name'), name), h('label', { class: 'field' }, msg('web.acc.code'), code),
      h('button', { type: 'submit', id: 'recover' }, msg('web.acc.signinCode')))));
}
