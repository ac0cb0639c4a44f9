// feel.js: how a throw feels on a phone: a short rattle of dice (Web
// Audio, no sound file) and a buzz (navigator.vibrate) when the dice land,
// a longer one on a farkle. Both are off until the player turns them on;
// the choice is kept in this browser. Nothing plays for a page that the
// player has not touched (browsers allow sound only after a gesture).
import { h } from './ui.js';
import { msg } from './i18n.js';

const KEY = 'farkle.feel';

function load() {
  try { return { sound: false, vibrate: false, ...JSON.parse(localStorage.getItem(KEY) || '{}') }; } catch { return { sound: false, vibrate: false }; }
}

const prefs = load();
let audio = null;

function rattle(n, gap) {
  if (!prefs.sound) return;
  try {
    audio = audio || new AudioContext();
    const t0 = audio.currentTime;
    for (let i = 0; i < n; i++) {
      const osc = audio.createOscillator(), gain = audio.createGain();
      osc.type = 'triangle';
      osc.frequency.value = 900 + 500 * ((i * 7919) % 5) / 5;
      gain.gain.setValueAtTime(0.0001, t0 + i * gap);
      gain.gain.exponentialRampToValueAtTime(0.25, t0 + i * gap + 0.005);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + i * gap + 0.06);
      osc.connect(gain).connect(audio.destination);
      osc.start(t0 + i * gap);
      osc.stop(t0 + i * gap + 0.07);
    }
  } catch { /* no Web Audio: silence */ }
}

function buzz(pattern) {
  if (prefs.vibrate && navigator.vibrate) navigator.vibrate(pattern);
}

export const feel = {
  // thrown: the dice of a throw landed.
  thrown() { rattle(4, 0.05); buzz(25); },
  // farkle: a throw scored nothing.
  farkle() { rattle(2, 0.15); buzz([60, 60, 120]); },
  get sound() { return prefs.sound; },
  get vibrate() { return prefs.vibrate; },
};

function set(k, v) {
  prefs[k] = v;
  try { localStorage.setItem(KEY, JSON.stringify(prefs)); } catch { /* kept for this page only */ }
}

// feelSettings returns the switches of sound and vibration.
export function feelSettings() {
  const box = (k, label) => h('label', { class: 'field check feel' },
    h('input', { type: 'checkbox', id: `feel-${k}`, checked: prefs[k], onchange: (e) => { set(k, e.target.checked); if (e.target.checked) k === 'sound' ? rattle(3, 0.05) : buzz(25); } }), msg(label));
  return h('div', { class: 'feel-settings', role: 'group', 'aria-label': msg('web.feel.title') },
    box('sound', 'web.feel.sound'), box('vibrate', 'web.feel.vibrate'));
}
