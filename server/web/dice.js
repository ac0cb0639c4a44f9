// dice.js draws dice as SVG.
const NS = 'http://www.w3.org/2000/svg';
const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 26], [72, 26], [28, 50], [72, 50], [28, 74], [72, 74]],
};

// dieSVG returns an <svg> of one die showing face (1..6).
export function dieSVG(face, cls = '') {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 100 100');
  svg.setAttribute('class', 'die ' + cls);
  svg.setAttribute('aria-hidden', 'true');
  const r = document.createElementNS(NS, 'rect');
  r.setAttribute('x', '5'); r.setAttribute('y', '5');
  r.setAttribute('width', '90'); r.setAttribute('height', '90');
  r.setAttribute('rx', '18');
  r.setAttribute('class', 'face');
  svg.appendChild(r);
  for (const [x, y] of PIPS[face] || []) {
    const c = document.createElementNS(NS, 'circle');
    c.setAttribute('cx', x); c.setAttribute('cy', y); c.setAttribute('r', '9');
    c.setAttribute('class', face === 1 || face === 5 ? 'pip scoring' : 'pip');
    svg.appendChild(c);
  }
  return svg;
}

// diceRow returns a row of small dice for the faces.
export function diceRow(faces, cls = 'small') {
  const span = document.createElement('span');
  span.className = 'dice-row';
  for (const f of faces || []) span.appendChild(dieSVG(f, cls));
  span.setAttribute('aria-label', (faces || []).join(' '));
  return span;
}

// keptIndices returns the positions in faces of the dice kept, a multiset
// of faces: each kept face marks the first unmarked die showing it.
export function keptIndices(faces, kept) {
  const out = new Set();
  for (const k of kept || []) {
    const i = (faces || []).findIndex((f, j) => f === k && !out.has(j));
    if (i >= 0) out.add(i);
  }
  return out;
}

// diceMarked returns a row of dice for faces with the kept ones marked
// (class kept) and the others dimmed, for a throw and what was kept of it.
export function diceMarked(faces, kept, cls = 'mid') {
  const marks = keptIndices(faces, kept);
  const span = document.createElement('span');
  span.className = 'dice-row marked';
  faces.forEach((f, i) => {
    const d = dieSVG(f, `${cls} ${marks.has(i) ? 'kept' : 'left-out'}`);
    span.appendChild(d);
  });
  span.setAttribute('aria-label', `${faces.join(' ')}, kept ${(kept || []).join(' ')}`);
  return span;
}
