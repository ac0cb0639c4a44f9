// account.js: accounts without passwords. A guest keeps its player by
// adding a passkey (WebAuthn), signs in with it on other devices, and
// keeps a one-time recovery code for the day its passkeys are gone.
import { h, api, page, state, loadMe, go } from './app.js';

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
  return api('POST', '/api/account/passkeys/finish', { credential: cred.toJSON() });
}

// signInWithPasskey runs the sign-in ceremony with any passkey of this site.
export async function signInWithPasskey() {
  const b = await api('POST', '/api/account/signin/begin');
  const a = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(b.publicKey) });
  return api('POST', '/api/account/signin/finish', { ceremony: b.ceremony, credential: a.toJSON() });
}

// recoveryBox shows a recovery code once, with what it is for.
function recoveryBox(code) {
  return h('section', { class: 'card recovery', id: 'recovery', role: 'alert' },
    h('h2', {}, 'Your recovery code'),
    h('p', { class: 'mono recovery-code', id: 'recovery-code' }, code),
    h('p', {}, 'Write it down or keep it in a password manager. It signs you in once if you lose your passkeys, and it is shown only now: the server keeps only its hash.'),
    h('button', { type: 'button', class: 'primary', id: 'recovery-saved', onclick: () => go('/account') }, 'I have saved it'));
}

const fmtDate = (s) => new Date(s).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';

// accountPage shows the player's account: for a guest, how to keep it;
// for an account, its passkeys.
export async function accountPage() {
  if (!state.me) { go('/signin'); return; }
  const a = await api('GET', '/api/account');
  const err = h('p', { class: 'error', role: 'alert', id: 'account-error' });
  const fail = (ex) => { err.textContent = ex.name === 'NotAllowedError' ? 'The passkey was not made or used (cancelled, or timed out).' : ex.message; };
  if (!passkeysSupported()) err.textContent = 'This browser cannot make passkeys.';
  if (!a.account) {
    const name = h('input', { id: 'account-name', name: 'name', maxlength: '24', value: a.name, autocomplete: 'username' });
    page(h('h1', {}, 'Keep your player'),
      h('section', { class: 'card' },
        h('p', {}, `You play as the guest ${a.name}, known only to this browser. Add a passkey to keep your name, games and rating on any device — no password to remember or leak.`),
        h('form', { onsubmit: async (e) => {
          e.preventDefault();
          err.textContent = '';
          try {
            const r = await addPasskey(name.value.trim());
            await loadMe();
            page(h('h1', {}, `Welcome, ${r.name}`), recoveryBox(r.recovery_code));
          } catch (ex) { fail(ex); }
        } }, h('label', { class: 'field' }, 'Account name (unique)', name),
        h('button', { type: 'submit', class: 'primary', id: 'create-account' }, 'Create my account with a passkey'), err)));
    return;
  }
  const list = h('ul', { class: 'passkeys', id: 'passkeys' }, a.passkeys.map((k) => h('li', { 'data-id': k.id },
    h('strong', {}, k.label), h('span', { class: 'muted small' }, ` added ${fmtDate(k.created)}${k.used ? ` · last used ${fmtDate(k.used)}` : ''} `),
    h('button', { type: 'button', class: 'small remove-passkey', disabled: a.passkeys.length < 2, title: a.passkeys.length < 2 ? 'An account keeps at least one passkey' : false,
      onclick: async () => {
        if (!confirm(`Remove the passkey "${k.label}"? It will no longer sign you in.`)) return;
        try { await api('DELETE', `/api/account/passkeys/${encodeURIComponent(k.id)}`); accountPage(); } catch (ex) { fail(ex); }
      } }, 'Remove'))));
  page(h('h1', {}, a.name),
    h('section', { class: 'card' },
      h('h2', {}, 'Passkeys'), list,
      h('p', { class: 'row gap' },
        h('button', { type: 'button', id: 'add-passkey', onclick: async () => {
          err.textContent = '';
          try { await addPasskey(); accountPage(); } catch (ex) { fail(ex); }
        } }, 'Add a passkey'),
        h('a', { class: 'button', href: `/players/${encodeURIComponent(a.id)}` }, 'Your games and rating')),
      err));
}

// signInPage signs in with a passkey or a recovery code. A guest of this
// browser that is no account is forgotten by it: the page says so.
export function signInPage() {
  const err = h('p', { class: 'error', role: 'alert', id: 'signin-error' });
  const done = async (r) => {
    await loadMe();
    if (r.recovery_code) page(h('h1', {}, `Welcome back, ${r.name}`), h('p', {}, 'That recovery code is used up. Here is your next one; add a passkey too.'), recoveryBox(r.recovery_code));
    else go('/');
  };
  const name = h('input', { id: 'recover-name', name: 'name', maxlength: '24', autocomplete: 'username' });
  const code = h('input', { id: 'recover-code', name: 'code', autocomplete: 'one-time-code', class: 'mono', placeholder: 'XXXXX-XXXXX-XXXXX-XXXXX' });
  const guest = state.me && !state.me.account;
  page(h('h1', {}, 'Sign in'),
    guest ? h('p', { class: 'card warn' }, `This browser plays as the guest ${state.me.name}. Signing in replaces it here: keep it first by adding a passkey on your account page if you want it.`) : '',
    h('section', { class: 'card' },
      h('button', { type: 'button', class: 'big primary', id: 'signin-passkey', disabled: !passkeysSupported(), onclick: async () => {
        err.textContent = '';
        try { await done(await signInWithPasskey()); } catch (ex) { err.textContent = ex.name === 'NotAllowedError' ? 'No passkey was used (cancelled, or none for this site).' : ex.message; }
      } }, 'Sign in with a passkey'), err),
    h('section', { class: 'card' },
      h('h2', {}, 'Lost your passkeys?'),
      h('form', { id: 'recover-form', onsubmit: async (e) => {
        e.preventDefault();
        err.textContent = '';
        try { await done(await api('POST', '/api/account/recover', { name: name.value.trim(), code: code.value.trim() })); } catch (ex) { err.textContent = ex.message; }
      } }, h('label', { class: 'field' }, 'Account name', name), h('label', { class: 'field' }, 'Recovery code', code),
      h('button', { type: 'submit', id: 'recover' }, 'Sign in with the recovery code'))));
}
