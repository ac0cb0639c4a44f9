// i18n.js: the page's language. Its texts come from a catalogue in lang/,
// one file a language; a third language joins with its file and its line
// in languages below. The language is the one chosen with the switch in
// the header (kept in this browser), else the first of the browser's
// languages there is a catalogue for (Norwegian, nb, nn or no: Bokmål),
// else English. Numbers are written as the language writes them
// (10,000 in English, 10 000 in Norwegian).
import en from './lang/en.js';
import nb from './lang/nb.js';

export const languages = { en, nb };

function pick() {
  let saved = null;
  try { saved = localStorage.getItem('lang'); } catch { /* no storage: the browser's language */ }
  if (saved && languages[saved]) return saved;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const base = l.toLowerCase().split('-')[0];
    if (base === 'no' || base === 'nn') return 'nb';
    if (languages[base]) return base;
  }
  return 'en';
}

export const lang = pick();
const cat = languages[lang];

// msg returns the text of key in the page's language with {name} filled
// from vars (English when the catalogue lacks it).
export function msg(key, vars = {}) {
  const s = cat.messages[key] ?? en.messages[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (_, k) => String(vars[k] ?? ''));
}

// num writes a whole number as the page's language does.
export function num(n) { return Number(n || 0).toLocaleString(cat.locale); }

// setLang keeps the language chosen and shows the page in it.
export function setLang(l) {
  try { localStorage.setItem('lang', l); } catch { /* no storage: this page only */ }
  location.reload();
}
