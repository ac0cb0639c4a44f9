// home.js: the front page: play a bot now, or the other ways in.
import { h, api, drawer, state, ensurePlayer, nameField, go } from './ui.js';
import { dieSVG } from './dice.js';
import { msg } from './i18n.js';
import { botDescription } from './rulesform.js';
import { botLevel } from './words.js';
import { myGames } from './pace.js';

// home draws the front page once the bots' list and the player's games
// are in: they came after it and pushed "Play now" down under a finger.
export async function home() {
  const draw = drawer();
  const err = h('p', { class: 'error', role: 'alert' });
  const play = h('button', { id: 'play-now', class: 'big primary', type: 'submit' }, msg('home.play'));
  const form = h('form', { class: 'card hero-form', onsubmit: async (e) => {
    e.preventDefault();
    play.disabled = true;
    try {
      await ensurePlayer(document.getElementById('name').value.trim());
      const t = await api('POST', '/api/tables', { seats: [{ type: 'me' }, { type: 'bot', level: document.getElementById('level').value }] });
      go(`/t/${t.id}`);
    } catch (ex) { err.textContent = ex.message; play.disabled = false; }
  } },
  nameField('name'),
  h('label', { class: 'field' }, msg('home.opponent'), h('select', { id: 'level' }), h('span', { id: 'level-desc', class: 'muted level-desc' })),
  play, err);
  const levels = api('GET', '/api/bots').catch(() => []).then((bots) => {
    const sel = form.querySelector('#level');
    for (const b of bots) sel.appendChild(h('option', { value: b.name, selected: b.name === 'steady', title: botDescription(b) }, botLevel(b.name)));
    const desc = () => {
      const b = bots.find((x) => x.name === sel.value);
      let d = b ? botDescription(b) : '';
      if (sel.value === 'perfect') d += msg('web.perfectWait');
      form.querySelector('#level-desc').textContent = d;
    };
    sel.addEventListener('change', desc);
    desc();
  });
  const hero = h('section', { class: 'hero' },
    h('div', { class: 'hero-dice' }, [1, 5, 3, 1, 6, 5].map((f) => dieSVG(f))),
    h('h1', {}, 'Farkle'),
    h('p', { class: 'lead' }, msg('home.lead')),
    form,
    h('p', { class: 'links' },
      h('a', { href: '/new', class: 'button' }, msg('home.friends')), ' ',
      h('a', { href: '/lobby', class: 'button' }, msg('home.join')),
      h('button', { id: 'play-dragon', class: 'button dragon-btn', onclick: async (e) => {
        e.target.disabled = true;
        try {
          await ensurePlayer(document.getElementById('name').value.trim());
          const t = await api('POST', '/api/tables', { rules: 'dragon', seats: [{ type: 'me' }, { type: 'bot', level: 'smart' }] });
          go(`/t/${t.id}`);
        } catch (ex) { err.textContent = ex.message; e.target.disabled = false; }
      } }, msg('home.dragon'))));
  const mine = h('div', { id: 'my-games' });
  // Games on this device work offline (local.js): first when offline.
  const local = h('section', { class: 'card local-card', id: 'local-card' },
    h('h2', {}, msg('web.local.title')), h('p', { class: 'muted' }, msg('web.local.lead')),
    h('a', { class: 'button primary big', id: 'play-local', href: '/local' }, msg('web.local.play')));
  await Promise.all([levels, state.me && navigator.onLine ? myGames(mine).catch(() => {}) : null]);
  draw(...(navigator.onLine ? [mine, hero, local] : [local]));
}
