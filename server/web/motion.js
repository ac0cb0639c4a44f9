// motion.js: how fast the page animates (the dice's tumble, the farkle and
// hot-dice banners): the setting kept in this browser — 'auto' (as the
// system asks: none when it prefers reduced motion, else normal),
// 'normal', 'fast' or 'off' — applied to the whole page as <html
// data-anim="auto|normal|fast|off">, which the style sheet reads.
const KEY = 'farkle.anim';

export const speeds = ['auto', 'normal', 'fast', 'off'];

const reduced = matchMedia('(prefers-reduced-motion: reduce)');

// animSetting is the setting chosen ('auto' when none).
export function animSetting() {
  let v = null;
  try { v = localStorage.getItem(KEY); } catch { /* no storage: the default */ }
  return speeds.includes(v) ? v : 'auto';
}

// animSpeed is the speed the page animates at: 'normal', 'fast' or 'off'.
export function animSpeed() {
  const v = animSetting();
  return v !== 'auto' ? v : reduced.matches ? 'off' : 'normal';
}

// setAnim keeps the setting v and applies it at once.
export function setAnim(v) {
  try { localStorage.setItem(KEY, v); } catch { /* this page only */ }
  applyMotion();
}

// The page's <html data-anim>: the setting itself, so that under 'auto'
// the style sheet follows the system's reduced motion as it changes.
function applyMotion() { document.documentElement.dataset.anim = animSetting(); }

reduced.addEventListener('change', applyMotion);
applyMotion();
