// adjourn.js: an adjourned game (docs/API.md: a game against bots its
// player left long enough), the same for every kind: not lost, not rated,
// and its player's Resume makes it playing again (the page reloads).
import { h, api } from './ui.js';
import { msg } from './i18n.js';

// adjournedBox is the notice of adjourned table id, with Resume for its
// player (seated).
export function adjournedBox(id, seated) {
  const err = h('p', { class: 'error', role: 'alert', hidden: true });
  const resume = async (e) => {
    e.target.disabled = true;
    try { await api('POST', `/api/tables/${id}/resume`); location.reload(); } catch (ex) { err.textContent = ex.message; err.hidden = false; e.target.disabled = false; }
  };
  return h('section', { class: 'card stopped', id: 'adjourned', role: 'status' },
    h('h2', {}, msg('web.adjourned.title')),
    h('p', {}, msg('web.adjourned.why')),
    seated ? h('p', {}, h('button', { class: 'primary', id: 'resume', type: 'button', onclick: resume }, msg('web.adjourned.resume'))) : '',
    err);
}
