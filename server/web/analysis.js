// analysis.js: the end-of-game analysis of a table's decisions, the same
// for every kind of game: each player's decisions, how many were the best,
// what the others lost, and the costliest ones, each named by its turn
// with what was on the table, a link into the replay at that moment and
// one into the explorer at its position.
import { h, api, nameEl } from './ui.js';
import { diceRow } from './dice.js';
import { turnLabels } from './turns.js';
import { explorerLink } from './explorelink.js';
import { msg, lang, dec, num, pct } from './i18n.js';
import { choiceText } from './words.js';

// units say how the values of each measure read.
const units = {
  win: (v) => msg('web.an.win', { v: dec(100 * v, 1) }),
  points: (v) => msg('web.an.points', { v: num(Math.round(v)) }),
  soldiers: (v) => msg('web.an.soldiers', { v: num(Math.round(v)) }),
};

// onTable returns what the player saw when deciding at step a of the
// replay r: the dice of the last throw and the turn total before it
// (ordinary game), or nothing.
function onTable(r, a) {
  if (r.table.kind === 'dragon' || !r.steps[a]) return '';
  const before = a > 0 ? r.steps[a - 1].state : r.start;
  if (!before) return '';
  const parts = [];
  if (before.throw && before.throw.length && before.step === 'keep') parts.push(' ', msg('web.an.with'), ' ', diceRow(before.throw), ' ', msg('web.an.thrown'));
  if (before.total) parts.push(parts.length ? ', ' : ` ${msg('web.an.with')} `, msg('web.an.atStake', { n: num(before.total) }));
  return parts;
}

// analysisView returns a function that draws the analysis of table id,
// asking the server for it (and the replay, to name its moments) the first
// time and calling redraw when they come.
export function analysisView(id, redraw) {
  let a = null, r = null;
  return () => {
    if (!a) {
      a = { loading: true };
      api('GET', `/api/tables/${id}/analysis`)
        .then((x) => { a = x; }, (ex) => { a = { error: ex.status === 503 ? msg('web.an.unavailable') : ex.message }; })
        .then(redraw);
      api('GET', `/api/tables/${id}/replay?lang=${lang}`).then((x) => { r = x; redraw(); }, () => {});
    }
    if (a.error) return h('p', { class: 'muted' }, a.error);
    if (!a.players) return h('p', { class: 'muted' }, msg('web.an.loading'));
    const unit = units[a.measure] || units.points;
    // costs reports whether a moment cost something as the page writes it:
    // one that rounds to nothing ("−0") is no costly choice.
    const costs = (w) => unit(w.lost) !== unit(0);
    const turns = r ? turnLabels(r) : [];
    // w.action numbers the action in the record from 1; its step is one less.
    const moment = (w) => {
      const step = w.action - 1, turn = turns[step];
      return h('li', {}, h('strong', {}, turn ? turn[0].toUpperCase() + turn.slice(1) : msg('web.an.decision')), r ? onTable(r, step) : '', msg('web.an.moment', { chosen: choiceText(w.chosen), best: choiceText(w.best), lost: unit(w.lost) }), ' ',
        h('a', { class: 'replay-link', href: `/replay/${id}?action=${w.action}` }, msg('web.an.seeReplay')),
        w.where && a.measure !== 'soldiers' ? [' · ', h('a', { class: 'small explore-moment', href: explorerLink(id, null, w.where) }, msg('web.an.seeExplorer'))] : ''); // the explorer is the ordinary game's: no link from a Dragon Farkle moment
    };
    return h('div', {},
      h('div', { class: 'scroll-x' }, h('table', { class: 'stats analysis' }, h('thead', {}, h('tr', {}, ['web.player', 'web.an.decisions', 'web.an.best', 'web.an.lost'].map((x) => h('th', {}, msg(x))))),
        h('tbody', {}, a.players.map((p) => h('tr', {}, h('td', {}, nameEl(p.name)), h('td', {}, p.decisions),
          h('td', {}, `${p.decisions - p.mistakes} (${pct(p.decisions ? (p.decisions - p.mistakes) / p.decisions : 1)})`), h('td', {}, unit(p.lost))))))),
      a.players.filter((p) => (p.worst || []).some(costs)).map((p) => h('div', { class: 'worst' },
        h('strong', {}, msg('web.an.costliest', { name: '\u0000' }).split('\u0000').flatMap((x, i) => i ? [nameEl(p.name), x] : [x])),
        h('ul', {}, p.worst.filter(costs).map(moment)))));
  };
}
