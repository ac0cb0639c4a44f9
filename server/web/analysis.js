// analysis.js: the end-of-game analysis of a table's decisions, the same
// for every kind of game: each player's decisions, how many were the best,
// what the others lost, and the costliest ones.
import { h, api, fmt, pct } from './app.js';
import { explorerLink } from './explorelink.js';

// units say how the values of each measure read.
const units = {
  win: (v) => (100 * v).toFixed(1) + ' pts of win chance',
  points: (v) => fmt(Math.round(v)) + ' expected points',
  soldiers: (v) => fmt(Math.round(v)) + ' expected soldiers',
};

// analysisView returns a function that draws the analysis of table id,
// asking the server for it the first time and calling redraw when it comes.
export function analysisView(id, redraw) {
  let a = null;
  return () => {
    if (!a) {
      a = { loading: true };
      api('GET', `/api/tables/${id}/analysis`)
        .then((r) => { a = r; }, (ex) => { a = { error: ex.status === 503 ? 'Analysis is not available on this server yet.' : ex.message }; })
        .then(redraw);
    }
    if (a.error) return h('p', { class: 'muted' }, a.error);
    if (!a.players) return h('p', { class: 'muted' }, 'Analysing the decisions…');
    const unit = units[a.measure] || units.points;
    return h('div', {},
      h('table', { class: 'stats analysis' }, h('thead', {}, h('tr', {}, ['Player', 'Decisions', 'Best moves', 'Lost'].map((x) => h('th', {}, x)))),
        h('tbody', {}, a.players.map((p) => h('tr', {}, h('td', {}, p.name), h('td', {}, p.decisions),
          h('td', {}, `${p.decisions - p.mistakes} (${pct(p.decisions ? (p.decisions - p.mistakes) / p.decisions : 1)})`), h('td', {}, unit(p.lost)))))),
      a.players.filter((p) => (p.worst || []).length).map((p) => h('div', { class: 'worst' },
        h('strong', {}, `${p.name}'s costliest choices`),
        h('ul', {}, p.worst.map((w) => h('li', {}, `Action ${w.action}: ${w.chosen} — best was ${w.best} (−${unit(w.lost)}) `,
          w.where ? h('a', { class: 'small explore-moment', href: explorerLink(id, null, w.where) }, 'see this position in the explorer') : ''))))));
  };
}
