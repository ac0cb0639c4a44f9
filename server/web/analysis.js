// analysis.js: the end-of-game analysis of a table's decisions, the same
// for every kind of game: each player's decisions, how many were the best,
// what the others lost, and the costliest ones, each named by its turn
// with what was on the table, a link into the replay at that moment and
// one into the explorer at its position.
import { h, api, fmt, pct, nameEl } from './app.js';
import { diceRow } from './dice.js';
import { turnLabels } from './turns.js';
import { explorerLink } from './explorelink.js';

// units say how the values of each measure read.
const units = {
  win: (v) => (100 * v).toFixed(1) + ' pts of win chance',
  points: (v) => fmt(Math.round(v)) + ' expected points',
  soldiers: (v) => fmt(Math.round(v)) + ' expected soldiers',
};

// onTable returns what the player saw when deciding at step a of the
// replay r: the dice of the last throw and the turn total before it
// (ordinary game), or nothing.
function onTable(r, a) {
  if (r.table.kind === 'dragon' || !r.steps[a]) return '';
  const before = a > 0 ? r.steps[a - 1].state : r.start;
  if (!before) return '';
  const parts = [];
  if (before.throw && before.throw.length && before.step === 'keep') parts.push(' with ', diceRow(before.throw), ' thrown');
  if (before.total) parts.push(`${parts.length ? ',' : ' with'} ${fmt(before.total)} at stake`);
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
        .then((x) => { a = x; }, (ex) => { a = { error: ex.status === 503 ? 'Analysis is not available on this server yet.' : ex.message }; })
        .then(redraw);
      api('GET', `/api/tables/${id}/replay`).then((x) => { r = x; redraw(); }, () => {});
    }
    if (a.error) return h('p', { class: 'muted' }, a.error);
    if (!a.players) return h('p', { class: 'muted' }, 'Analysing the decisions…');
    const unit = units[a.measure] || units.points;
    const turns = r ? turnLabels(r) : [];
    // w.action numbers the action in the record from 1; its step is one less.
    const moment = (w) => {
      const step = w.action - 1, turn = turns[step];
      return h('li', {}, h('strong', {}, turn ? turn[0].toUpperCase() + turn.slice(1) : 'A decision'), r ? onTable(r, step) : '', `: ${w.chosen} — best was ${w.best} (−${unit(w.lost)}) `,
        h('a', { class: 'replay-link', href: `/replay/${id}?action=${w.action}` }, 'see it in the replay'),
        w.where ? [' · ', h('a', { class: 'small explore-moment', href: explorerLink(id, null, w.where) }, 'see this position in the explorer')] : '');
    };
    return h('div', {},
      h('table', { class: 'stats analysis' }, h('thead', {}, h('tr', {}, ['Player', 'Decisions', 'Best moves', 'Lost'].map((x) => h('th', {}, x)))),
        h('tbody', {}, a.players.map((p) => h('tr', {}, h('td', {}, nameEl(p.name)), h('td', {}, p.decisions),
          h('td', {}, `${p.decisions - p.mistakes} (${pct(p.decisions ? (p.decisions - p.mistakes) / p.decisions : 1)})`), h('td', {}, unit(p.lost)))))),
      a.players.filter((p) => (p.worst || []).length).map((p) => h('div', { class: 'worst' },
        h('strong', {}, nameEl(p.name), '’s costliest choices'),
        h('ul', {}, p.worst.map(moment)))));
  };
}
