// i18n.js: the page's language. Its texts come from the server's
// catalogues (/static/lang/CODE.json, one file a language, shared with the
// terminal and the command line); a third language joins with its file.
// The language is the one chosen with the switch in the header (kept in
// this browser), else the first of the browser's languages there is a
// catalogue for (Norwegian, nb, nn or no: Bokmål), else English. Numbers
// are written as the language writes them (10,000 in English, 10 000 in
// Norwegian).
async function getJSON(url) {
  try {
    const r = await fetch(url);
    if (r.ok) return await r.json();
  } catch { /* offline: English texts stay keys, the page still works */ }
  return null;
}

// languages maps each code there is a catalogue for to its name.
export const languages = (await getJSON('/static/lang/index.json')) || { en: 'English' };

function pick() {
  let saved = null;
  try { saved = localStorage.getItem('lang'); } catch { /* no storage: the browser's language */ }
  if (saved && languages[saved]) return saved;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const base = l.toLowerCase().split('-')[0];
    if ((base === 'no' || base === 'nn') && languages.nb) return 'nb';
    if (languages[base]) return base;
  }
  return 'en';
}

export const lang = pick();
const empty = { locale: 'en-US', percent: '{p}%', messages: {} };
const [en, own] = await Promise.all([
  getJSON('/static/lang/en.json'),
  lang === 'en' ? null : getJSON(`/static/lang/${lang}.json`),
]);
const cat = own || en || empty;
const base = en || empty;
document.documentElement.lang = lang;

function lookup(key) { return cat.messages[key] ?? base.messages[key]; }

// msg returns the text of key in the page's language with {name} filled
// from vars (English when the catalogue lacks it, the key when no catalogue
// has it). A key with a ".one" variant uses it when vars.n is 1. Whole
// numbers are written as the language writes them, and so are sizes as the
// server writes them ("212.9 MiB": size).
export function msg(key, vars = {}) {
  let s = (vars.n === 1 && lookup(`${key}.one`)) || lookup(key) || key;
  return s.replace(/\{(\w+)\}/g, (_, k) => {
    const v = vars[k];
    return Number.isInteger(v) ? num(v) : size(String(v ?? ''));
  });
}

// size writes a size as the server writes it ("212.9 MiB", the solver's
// reasons) with the page's decimal mark; any other text as it is.
export function size(s) { return /^\d+\.\d [KMGT]iB$/.test(s) ? s.replace('.', dec(1.5, 1).charAt(1)) : s; }

// has reports whether some catalogue has a text for key.
export function has(key) { return lookup(key) !== undefined; }

// num writes a whole number as the page's language does.
export function num(n) { return Number(n || 0).toLocaleString(cat.locale); }

// dec writes x with digits decimals as the page's language does.
export function dec(x, digits) {
  return Number(x || 0).toLocaleString(cat.locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

// pct writes a probability (0 to 1) as a percentage with digits decimals.
export function pct(p, digits = 1) { return (cat.percent || '{p}%').replace('{p}', dec(100 * p, digits)); }

// date writes a moment (an ISO string or a Date) as the page's language
// writes a date and time, in UTC (the server's times), with "UTC" after it.
export function date(t, opts = { dateStyle: 'medium', timeStyle: 'short' }) {
  return new Date(t).toLocaleString(cat.locale, { ...opts, timeZone: 'UTC' }) + ' UTC';
}

// langSwitch returns the menu of the languages (the header's), which
// keeps the one chosen and shows the page in it.
export function langSwitch() {
  const sel = document.createElement('select');
  sel.id = 'lang';
  sel.setAttribute('aria-label', msg('lang.label'));
  for (const [code, name] of Object.entries(languages)) {
    const o = new Option(code.toUpperCase(), code, code === lang, code === lang);
    o.title = name;
    sel.append(o);
  }
  sel.addEventListener('change', (e) => setLang(e.target.value));
  return sel;
}

// setLang keeps the language chosen and shows the page in it.
export function setLang(l) {
  try { localStorage.setItem('lang', l); } catch { /* no storage: this page only */ }
  location.reload();
}

// errText is an error of the server in the page's language: the API and
// the WebSocket keep their messages English for every client and give a
// code (and the field at fault), which the page translates with its err.*
// texts (err.CODE.FIELD, then err.CODE). English pages show the server's
// own message, the most precise, as does any error without a text here.
export function errText(code, field, message) {
  if (lang !== 'en' && code) {
    for (const key of [field && `err.${code}.${field}`, `err.${code}`]) {
      if (key && lookup(key) !== undefined) return msg(key);
    }
  }
  return message || msg('err.internal');
}
