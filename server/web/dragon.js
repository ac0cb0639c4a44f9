// dragon.js: a Dragon Farkle table, live over the WebSocket. The server
// sends only what this seat may see (its own Magic Items, the others'
// counts). Shown: the event die, the thrown dice to click and keep, the
// turn's pool, the action choice (recruit, brawl, Final Battle), the Rally
// reward, stop / retreat, cards in hand and face up, the dragon's wounds,
// the log, hints and the Final Battle odds chart; a brawl step by step
// (each side's throw, the cards it may use on it, the defender's too) and
// a Companion hire. The page asks the seat the game waits for (to_act),
// the defender during their brawl throw. Keys: 1–6 toggle dice, K keep,
// T throw, S stop, P stand by a brawl throw, H hint.
import { h, api, page, ensurePlayer, nameField, fmt, pct, nameEl } from './app.js';
import { dieSVG, diceRow } from './dice.js';
import { connectTable } from './socket.js';
import { tableClock } from './clock.js';
import { analysisView } from './analysis.js';
import { ratingChange } from './rating.js';
import { rematchBox } from './rematch.js';

const NS = 'http://www.w3.org/2000/svg';

function svg(tag, attrs = {}, ...kids) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const k of kids) el.appendChild(typeof k === 'string' ? document.createTextNode(k) : k);
  return el;
}

// eventDieSVG draws the event die: blank, rally (a banner star) or dragon.
export function eventDieSVG(face, cls = '') {
  const s = svg('svg', { viewBox: '0 0 100 100', class: `die event ${face} ${cls}`, role: 'img', 'aria-label': `event die: ${face}` });
  s.appendChild(svg('rect', { x: 5, y: 5, width: 90, height: 90, rx: 18, class: 'face' }));
  if (face === 'rally') {
    const pts = [];
    for (let i = 0; i < 10; i++) {
      const r = i % 2 ? 16 : 36, a = -Math.PI / 2 + i * Math.PI / 5;
      pts.push(`${(50 + r * Math.cos(a)).toFixed(1)},${(52 + r * Math.sin(a)).toFixed(1)}`);
    }
    s.appendChild(svg('polygon', { points: pts.join(' '), class: 'rally-star' }));
  } else if (face === 'dragon') {
    s.appendChild(svg('path', { d: 'M22 70 Q30 30 50 22 Q46 40 58 44 Q66 30 80 30 Q70 48 78 70 Q62 60 50 76 Q40 60 22 70 Z', class: 'dragon-head' }));
    s.appendChild(svg('circle', { cx: 58, cy: 52, r: 5, class: 'dragon-eye' }));
  }
  return s;
}

const label = (a, cardName, names) => {
  switch (a.kind) {
    case 'recruit': return 'Recruit';
    case 'battle': return 'Final Battle!';
    case 'brawl': return `Brawl ${names[a.target]}`;
    case 'roll': return 'Throw';
    case 'stop': return 'Stop and bank';
    case 'retreat': return 'Retreat';
    case 'accept': return 'Accept';
    case 'use': return `Use ${cardName(a.card)}${a.face ? ` on a ${a.face}` : ''}`;
    case 'discard': return `Discard ${cardName(a.card)}`;
    case 'pass': return 'Stand by this throw';
    case 'hire': return 'Hire a Companion';
    case 'dismiss': return `Dismiss ${cardName(a.card)}`;
    case 'keep': return `Keep ${(a.keep || []).join('-')}${a.reward === 'double' ? ', double' : a.reward === 'item' ? ', draw an item' : ''}`;
    default: return a.kind;
  }
};

export function dragonPage(id) {
  const g = { id, ws: null, table: null, v: null, you: { seat: -1 }, log: [], sel: new Set(), closed: false, retry: 0, odds: null, hint: null, err: null };
  const root = h('div', { id: 'game', class: 'game dragon-game' });
  const banner = h('div', { class: 'banner', role: 'status', hidden: true });
  page(banner, root);
  api('GET', '/api/dragon/odds').then((o) => { g.odds = o; draw(); }).catch(() => {});

  const send = (m) => { if (g.ws && g.ws.readyState === 1) g.ws.send(JSON.stringify(m)); };
  const act = (a) => { g.hint = null; g.show = null; send({ type: 'action', version: g.v.version, action: a }); };

  function onMessage(m) {
    if (m.type === 'welcome') {
      g.table = m.table; g.v = m.dragon; g.you = m.you; g.log = m.log; g.sel.clear();
    } else if (m.type === 'update') {
      const before = g.v;
      g.table = { ...m.table, rules: g.table.rules }; g.v = m.dragon; g.log = g.log.concat(m.log); g.sel.clear(); g.hint = null;
      startShow(m.log, before);
    } else if (m.type === 'error') {
      g.err = m.message;
      setTimeout(() => { g.err = null; draw(); }, 4000);
    } else if (m.type === 'hint') {
      g.hint = m.advice;
    } else if (m.type === 'rematch') {
      g.table = { ...g.table, rematch: m.rematch };
    } else if (m.type === 'failed' || m.type === 'expired') {
      g.table = { ...m.table, rules: g.table.rules };
      g.err = `This table ${m.type === 'expired' ? 'expired' : 'was stopped'}: ${m.reason}`;
    }
    if (m.table) clock.seen(m.type);
    forceSel();
    draw();
  }

  const names = () => g.table.seats.map((s) => s.name);

  // A brawl is shown throw by throw at the bots' pace: the throws one
  // action brought (the challenger's, the defender's, a card's new throw),
  // then the outcome if it came. The game has moved on; the log and the
  // soldiers catch up with the show. A throw the game now waits on is
  // drawn by the table itself. S (or the button) skips the show, and so
  // does the person's next action.
  const SHOW_PACE = 700;
  let showID = 0;
  function startShow(lines, before) {
    const r = lines.findIndex((l) => l.kind === 'brawl');
    const brawling = g.v.mode === 'brawl';
    if (r < 0 && !brawling) return;
    const end = r < 0 ? lines.length : r, base = g.log.length - lines.length;
    const frames = [], upto = [];
    lines.forEach((l, j) => { if (j < end && (l.kind === 'throw' || l.kind === 'card-changed') && l.dice) { frames.push(l); upto.push(base + j + 1); } });
    if (r < 0) { frames.pop(); upto.pop(); } // the table shows the throw waited on
    const result = r < 0 ? null : lines[r];
    if (result) upto.push(base + r + 1);
    if (!upto.length) return;
    const was = before && before.brawl, now = g.v.brawl;
    const challenger = result ? result.seat : g.v.turn;
    let defender = now ? now.defender : was ? was.defender : -1;
    if (defender < 0) { const f = frames.find((l) => l.seat !== challenger); defender = f ? f.seat : -1; }
    // The challenger's score the defender's throws are against.
    let against = result ? result.n || 0 : now && now.defending ? now.score : 0;
    for (const f of frames) if (f.seat === challenger) against = f.n || 0;
    let last = frames[frames.length - 1] || null;
    if (!last) for (let j = g.log.length - lines.length - 1; j >= 0; j--) { const l = g.log[j]; if ((l.kind === 'throw' || l.kind === 'card-changed') && l.dice) { last = l; break; } }
    const id = ++showID;
    g.show = { id, step: 0, frames, result, last, challenger, defender, against, players: before ? before.players : null, upto };
    const next = () => {
      if (!g.show || g.show.id !== id) return;
      if (++g.show.step >= g.show.upto.length) g.show = null; else setTimeout(next, SHOW_PACE);
      draw();
    };
    setTimeout(next, SHOW_PACE);
  }
  function skipShow() { g.show = null; draw(); }
  // shownLog is the log as far as the show has come.
  const shownLog = () => g.show ? g.log.slice(0, g.show.upto[g.show.step]) : g.log;
  // shownPlayer is seat i as the show has it: the soldiers before the
  // brawl until its outcome is shown.
  const shownPlayer = (i) => g.show && g.show.result && g.show.step < g.show.frames.length && g.show.players ? g.show.players[i] : g.v.players[i];
  const brawlScore = (face, n) => `${fmt(n || 0)}${face === 'rally' && n ? ' (a Rally doubles it)' : face === 'dragon' ? ' (the Dragon: nothing)' : ''}`;

  function showPanel() {
    const sh = g.show, n = names(), outcome = sh.step >= sh.frames.length;
    const l = outcome ? sh.last : sh.frames[sh.step];
    let text = outcome ? sh.result.text : '';
    if (!outcome) {
      const mine = l.seat === sh.challenger, score = brawlScore(l.face, l.n);
      if (l.kind === 'card-changed') text = mine ? `${n[l.seat]}'s card: the throw now scores ${score}` : `${n[l.seat]}'s card: the answer now scores ${score}, against ${fmt(sh.against)}`;
      else text = mine ? `${n[l.seat]} throws for the brawl: ${score}` : `${n[l.seat]} answers with ${score}, against ${fmt(sh.against)}`;
    }
    return h('div', { class: 'brawl-show', id: 'brawl-show', 'data-step': sh.step, role: 'status' },
      h('p', { class: 'small muted' }, `Brawl: ${n[sh.challenger]} challenged ${n[sh.defender] || ''}`),
      l ? h('div', { class: 'throw-area', 'aria-label': `${n[l.seat]}'s brawl throw` },
        h('div', { class: 'event-box' }, eventDieSVG(l.face || 'blank', 'big-event')), h('span', { class: 'sep' }),
        ...(l.dice || []).map((f) => h('span', { class: 'show-die', 'data-face': f }, dieSVG(f)))) : '',
      h('p', { class: `brawl-label${outcome ? ' outcome' : ''}`, id: 'brawl-label' }, text),
      h('p', { class: 'center' }, h('button', { class: 'small ghost', id: 'skip-brawl', onclick: skipShow }, 'Skip the brawl ', h('kbd', {}, 'S'))));
  }

  // brawlPanel draws the brawl throw the game waits on: its dice, its
  // score and, for the defender, the challenger's settled throw to beat.
  function brawlPanel() {
    const v = g.v, b = v.brawl, n = names(), thrower = b.defending ? b.defender : v.turn;
    const you = (i) => i === g.you.seat ? 'Your' : `${n[i]}'s`;
    return h('div', { class: 'brawl-now', id: 'brawl-now' },
      h('p', { class: 'small muted' }, `Brawl: ${n[v.turn]} challenged ${n[b.defender]}`),
      b.defending ? h('p', { class: 'center small', id: 'brawl-settled' }, `${you(v.turn)} throw `, diceRow(b.throw || []), ` and ${b.event === 'rally' ? 'a Rally' : b.event === 'dragon' ? 'the Dragon' : 'a Blank'}: ${fmt(b.score)}`) : '',
      h('div', { class: 'throw-area', 'aria-label': `${n[thrower]}'s brawl throw` },
        h('div', { class: 'event-box', id: 'event' }, eventDieSVG(v.event, 'big-event')), h('span', { class: 'sep' }),
        ...(v.throw || []).map((f) => h('span', { class: 'show-die', 'data-face': f }, dieSVG(f)))),
      h('p', { class: 'brawl-label', id: 'brawl-score' }, `${you(thrower)} throw scores ${brawlScore(v.event, v.brawl_score)}${b.defending ? `, against ${fmt(b.score)}` : ''}`));
  }

  // hirePanel shows the Companion held and the one hired side by side,
  // each with the button that keeps it (dismissing the other).
  function hirePanel() {
    const v = g.v, own = v.players[v.turn].companion, offer = v.offer, mine = myTurn();
    const side = (c, other, id, tag) => h('div', { class: 'hire-side' }, cardView(c, tag),
      mine ? h('button', { class: 'big', id, 'data-kind': 'dismiss', 'data-card': other.id, onclick: () => act({ kind: 'dismiss', card: other.id, target: 0 }) }, `Keep ${c.name}`) : '');
    return h('div', { class: 'dcards hire', id: 'hire' }, side(offer, own, 'keep-new', ' · hired'), side(own, offer, 'keep-own', ' · yours'));
  }
  const clock = tableClock(g, names, () => !g.v || g.v.phase === 'over' || g.table.status !== 'playing');
  const myTurn = () => g.online && g.v && g.v.to_act === g.you.seat && g.you.seat >= 0 && g.v.phase !== 'over' && (g.v.legal || []).length > 0;
  const legal = (kind) => (g.v.legal || []).filter((a) => a.kind === kind);
  const cardName = (cid) => {
    const all = [];
    for (const p of g.v.players) { if (p.companion) all.push(p.companion); all.push(...(p.items || [])); }
    all.push(...(g.v.drawn || []), ...(g.v.item_discard || []), ...(g.v.companion_discard || []));
    if (g.v.offer) all.push(g.v.offer);
    const c = all.find((x) => x.id === cid);
    return c ? c.name : cid;
  };

  function selection() {
    const faces = [...g.sel].map((i) => g.v.throw[i]).sort((a, b) => a - b);
    const same = (k) => (k || []).length === faces.length && k.every((d, i) => d === faces[i]);
    const keeps = legal('keep').filter((a) => same(a.keep));
    // The game's own value of each legal keep, card bonuses included.
    const values = (g.v.keep_values || []).filter((k) => same(k.dice));
    const info = values.find((k) => k.reward !== 'item') || values[0];
    const worth = (a) => { const kv = values.find((k) => (k.reward || '') === (a.reward || '')); return kv ? kv.soldiers : 0; };
    return { faces, keeps, info, values, worth };
  }
  // forced reports whether the Dragon chose the dice: recruiting under
  // the Dragon, only the keep of every scoring die is legal.
  const forced = () => myTurn() && g.v.phase === 'keep' && g.v.mode === 'recruit' && g.v.event === 'dragon' && legal('keep').length === 1;
  // forceSel chooses the forced keep's dice for the player.
  function forceSel() {
    if (!g.v || !forced()) return;
    g.sel.clear();
    const left = [...legal('keep')[0].keep];
    g.v.throw.forEach((f, i) => { const j = left.indexOf(f); if (j >= 0) { left.splice(j, 1); g.sel.add(i); } });
  }
  function toggle(i) {
    if (!myTurn() || g.v.phase !== 'keep') return;
    if (forced()) {
      g.err = 'The Dragon chose these dice: every scoring die must be set aside.';
      setTimeout(() => { g.err = null; draw(); }, 4000);
      draw();
      return;
    }
    if (g.sel.has(i)) g.sel.delete(i); else g.sel.add(i);
    draw();
  }
  function keepSel() {
    const { keeps } = selection();
    if (keeps.length >= 1) act(keeps[0]);
  }
  const first = (kind) => { const a = legal(kind)[0]; if (a) act(a); };

  const onKey = (e) => {
    if (e.target.closest && e.target.closest('input,select,textarea')) return;
    if (e.ctrlKey || e.metaKey || e.altKey || !g.v) return;
    const k = e.key.toLowerCase();
    if (g.show && (k === 's' || k === 'escape')) { skipShow(); e.preventDefault(); }
    else if (k >= '1' && k <= '6') { toggle(Number(k) - 1); e.preventDefault(); }
    else if (k === 'k') { keepSel(); e.preventDefault(); }
    else if (k === 't' || k === 'r') { first('roll'); e.preventDefault(); }
    else if (k === 's') { first('stop'); e.preventDefault(); }
    else if (k === 'p') { first('pass'); e.preventDefault(); }
    else if (k === 'h') { askHint(); e.preventDefault(); }
  };
  document.addEventListener('keydown', onKey);

  function askHint() { if (myTurn()) send({ type: 'hint' }); }

  async function take() {
    try {
      await ensurePlayer(document.getElementById('join-name').value.trim());
      await api('POST', `/api/tables/${id}/join`);
      g.ws.close();
    } catch (ex) { g.err = ex.message; draw(); }
  }

  function wounds() {
    const v = g.v, n = v.dragon_health;
    return h('div', { class: 'wounds', 'aria-label': `the dragon's wounds: ${v.damage} of ${n}` },
      h('span', { class: 'small' }, "Dragon's wounds"),
      Array.from({ length: n }, (_, i) => h('span', { class: `wound${i < v.damage ? ' hit' : ''}` })));
  }

  function statusText() {
    const v = g.v, mine = myTurn();
    if (v.phase === 'over') return 'Game over';
    const who = names()[v.to_act], b = v.brawl;
    const bot = g.table.seats[v.to_act] && g.table.seats[v.to_act].bot;
    if (!mine && b && b.defending) return `Waiting for ${who} (defending)`;
    if (!mine) return bot ? `${who} is thinking…` : `${who} is playing…`;
    switch (v.phase) {
      case 'choose': return 'Your turn: recruit, brawl or fight the dragon';
      case 'brawl': return b.defending ? `You defend against ${names()[v.turn]}: use a card on your throw, or stand by it` : 'Your brawl throw: use a card on it, or stand by it';
      case 'hire': return 'You hired a Companion: keep one, the other is dismissed';
      case 'keep':
        if (legal('accept').length && !legal('keep').length) return 'Nothing to keep: accept, or use a card';
        if (v.mode === 'battle') return 'Battle: choose dice to keep (they cost soldiers)';
        return v.event === 'dragon' ? 'The Dragon eats this throw: every scoring die is set aside' : 'Choose dice to keep';
      case 'evaded': return 'You evaded the dragon: throw again or stop';
      case 'roll': return `Throw ${v.dice} ${v.dice === 1 ? 'die' : 'dice'} or ${v.mode === 'battle' ? 'retreat' : 'stop'}`;
      case 'discard': return 'Too many Magic Items: discard one';
      default: return 'Your turn';
    }
  }

  function board() {
    const v = g.v;
    if (!v) {
      const seated = g.you.seat >= 0, free = g.table.seats.some((s) => s.free);
      return h('section', { class: 'card play waiting' }, h('h2', {}, 'Waiting for players'),
        h('p', {}, 'Share this link with a friend:'),
        h('p', {}, h('input', { class: 'link', readonly: true, value: location.href, onfocus: (e) => e.target.select(), 'aria-label': 'link to this table' })),
        !seated && free ? h('div', { class: 'row gap' }, nameField('join-name'), h('button', { class: 'primary', id: 'take-seat', onclick: take }, 'Take a seat')) : '',
        seated ? h('p', { class: 'muted' }, 'You are seated. The game starts when every seat is taken.') : '');
    }
    const mine = myTurn();
    const ph = v.phase;
    const thrown = (v.throw || []);
    const { faces, keeps, info, values, worth } = ph === 'keep' ? selection() : { faces: [], keeps: [], info: null, values: [], worth: () => 0 };
    const diceArea = h('div', { class: 'throw-area', role: 'group', 'aria-label': 'dice' },
      thrown.length && (ph === 'keep' || ph === 'evaded') ? [
        h('div', { class: 'event-box', id: 'event' }, eventDieSVG(v.event, 'big-event'),
          h('span', { class: 'small' }, v.event === 'rally' ? 'Rally!' : v.event === 'dragon' ? 'Dragon!' : 'Blank')),
        h('span', { class: 'sep' }),
        ...thrown.map((f, i) => h('button', { class: `die-btn${g.sel.has(i) ? ' sel' : ''}`, disabled: !(mine && ph === 'keep'), 'data-face': f,
          'aria-pressed': g.sel.has(i) ? 'true' : 'false', 'aria-label': `die ${i + 1}: ${f}`, onclick: () => toggle(i) }, dieSVG(f), h('kbd', {}, i + 1))),
      ] : h('span', { class: 'muted' }, ph === 'choose' ? (mine ? 'Choose your action' : '') : ph === 'over' ? '' : `${v.dice} dice to throw`));
    let selText = '\u00a0';
    if (mine && ph === 'keep') {
      if (faces.length === 0) selText = keepsLeft() ? 'Select scoring dice' : 'No keep is possible';
      else if (info && forced()) selText = `The Dragon eats ${fmt(info.eaten)} soldiers: ${faces.join('-')} must be set aside`;
      else if (info) selText = previewText(v, info, values);
      else selText = 'Not a scoring keep';
    }
    const keptRow = (v.kept || []).length && ph !== 'choose' && ph !== 'over' && ph !== 'brawl' ? h('p', { class: 'center small kept-row' }, 'Set aside this turn ', diceRow(v.kept)) : '';
    function keepsLeft() { return legal('keep').length > 0; }

    const btn = (a, cls = '') => h('button', { class: `big ${cls}`, 'data-kind': a.kind, onclick: () => act(a) }, label(a, cardName, names()));
    const buttons = [];
    if (mine) {
      if (ph === 'choose') {
        legal('recruit').forEach((a) => buttons.push(btn(a, 'primary')));
        legal('brawl').forEach((a) => buttons.push(btn(a)));
        const bat = legal('battle');
        if (bat.length) buttons.push(btn(bat[0], 'danger'));
        else buttons.push(h('button', { class: 'big', disabled: true, title: `The Final Battle needs ${fmt(g.table.rules.battle_minimum)} soldiers` }, `Final Battle (needs ${fmt(g.table.rules.battle_minimum)})`));
        legal('hire').forEach((a) => buttons.push(h('button', { class: 'big', id: 'hire-companion', 'data-kind': 'hire', onclick: () => act(a) }, `Hire a Companion (${fmt(v.hire_cost)} soldiers)`)));
      } else if (ph === 'brawl') {
        useButtons(buttons);
        legal('pass').forEach((a) => buttons.push(h('button', { class: 'big primary', id: 'pass', 'data-kind': 'pass', onclick: () => act(a) }, `Stand by this throw (${fmt(v.brawl_score)}) `, h('kbd', {}, 'P'))));
      } else if (ph === 'keep') {
        if (keeps.length === 0) buttons.push(h('button', { class: 'big primary', id: 'keep', disabled: true }, 'Keep ', h('kbd', {}, 'K')));
        keeps.forEach((a, i) => buttons.push(h('button', { class: `big ${i === 0 ? 'primary' : 'bank'}`, id: i === 0 ? 'keep' : null, 'data-kind': 'keep', onclick: () => act(a) },
          a.reward === 'double' ? `Keep and double them (+${fmt(worth(a))})` : a.reward === 'item' ? `Keep and draw a Magic Item (+${fmt(worth(a))})` : 'Keep', i === 0 ? ' ' : '', i === 0 ? h('kbd', {}, 'K') : '')));
        legal('accept').forEach((a) => buttons.push(btn(a)));
        useButtons(buttons);
      } else if (ph === 'roll' || ph === 'evaded') {
        legal('roll').forEach((a) => buttons.push(h('button', { class: 'big primary', id: 'roll', 'data-kind': 'roll', onclick: () => act(a) }, `Throw ${v.dice}`, ' ', h('kbd', {}, 'T'))));
        legal('stop').forEach((a) => buttons.push(h('button', { class: 'big bank', id: 'stop', 'data-kind': 'stop', onclick: () => act(a) }, `Stop, bank ${fmt(v.pool)}`, ' ', h('kbd', {}, 'S'))));
        legal('retreat').forEach((a) => buttons.push(btn(a)));
      } else if (ph === 'discard') {
        legal('discard').forEach((a) => buttons.push(btn(a)));
      }
      buttons.push(h('button', { class: 'big ghost', id: 'hint', onclick: askHint }, 'Hint ', h('kbd', {}, 'H')));
    }
    const mode = v.mode === 'battle' ? 'Final Battle' : v.mode === 'recruit' ? 'Recruiting' : v.mode === 'brawl' ? 'Brawl' : '';
    return h('section', { class: `card play${mine ? ' mine' : ''}${v.mode === 'battle' ? ' battle' : ''}`, 'aria-label': 'table' },
      clock.badge(),
      h('div', { class: 'status-line' },
        h('div', {}, h('h2', { id: 'status' }, statusText()), h('div', { class: 'muted small' }, `Round ${v.round}${mode ? ' · ' + mode : ''}`)),
        v.mode === 'battle' ? wounds() : v.mode === 'brawl' || ph === 'hire' ? '' : h('div', { class: 'turn-total' }, h('span', { class: 'muted small' }, 'Pool'), h('strong', { id: 'pool' }, fmt(v.pool)))),
      g.show ? showPanel() : ph === 'brawl' && v.brawl ? brawlPanel() : ph === 'hire' && v.offer ? hirePanel() : diceArea,
      h('p', { class: `selection${info ? ' ok' : ''}`, id: 'selection', 'aria-live': 'polite' }, selText),
      keptRow,
      v.drawn_count ? h('p', { class: 'center small' }, `${v.drawn_count} Magic Item${v.drawn_count > 1 ? 's' : ''} drawn this turn`) : '',
      h('div', { class: 'buttons' }, buttons),
      g.err ? h('p', { class: 'error', role: 'alert' }, g.err) : '',
      hintBox());
  }

  // useButtons adds a button for every card use legal now, grouped by card.
  function useButtons(buttons) {
    const uses = new Map();
    for (const a of legal('use')) { if (!uses.has(a.card)) uses.set(a.card, []); uses.get(a.card).push(a); }
    for (const [cid, acts] of uses) {
      buttons.push(h('div', { class: 'uses' }, h('span', { class: 'small' }, `Use ${cardName(cid)}${acts[0].face ? ' on' : ''}`),
        acts.map((a) => h('button', { class: 'small ghost', 'data-kind': 'use', 'aria-label': label(a, cardName, names()), title: label(a, cardName, names()), onclick: () => act(a) },
          a.face ? dieSVG(a.face, 'small') : 'Use'))));
    }
  }

  // previewText says what keeping the chosen dice does, in the game's own
  // figures (dragon.KeepValue): what it costs in battle, what the dragon
  // eats, or the soldiers recruited with the cards' bonuses.
  function previewText(v, info, values) {
    const cards = (kv) => kv.bonus ? ` (${fmt(kv.points)} + ${fmt(kv.bonus)} from your cards)` : '';
    if (v.mode === 'battle') {
      const me = v.players[v.turn];
      return `Costs ${fmt(info.cost)} of your ${fmt(me.soldiers)} soldiers${info.discount ? ` (${fmt(info.discount)} off from your cards)` : ''}`;
    }
    if (v.event === 'dragon') return `Eaten by the dragon: ${fmt(info.eaten)} soldiers${cards(info)}`;
    const d = values.find((k) => k.reward === 'double'), it = values.find((k) => k.reward === 'item');
    if (d && it) return `Recruits ${fmt(d.soldiers)} doubled, or ${fmt(it.soldiers)} and a Magic Item${it.bonus ? ` (with ${fmt(it.bonus)} from your cards)` : ''}`;
    return `Recruits ${fmt(info.soldiers)} soldiers${cards(info)}`;
  }

  function hintBox() {
    if (!g.hint) return '';
    if (!g.hint.length) return h('div', { class: 'hint' }, 'No hint for this choice (card uses outside a brawl, discards, hires and dismissals are not valued).');
    const best = Math.max(...g.hint.map((a) => a.value));
    return h('div', { class: 'hint', id: 'hint-box' }, h('strong', {}, 'Hint'), h('ol', {}, g.hint.map((a) =>
      h('li', { class: a.value === best ? 'best' : '' }, `${label(a.action, cardName, names())}: `,
        a.unit === 'p_win' ? `${pct(a.value)} to slay the dragon` : `${a.value >= 0 ? '+' : ''}${fmt(Math.round(a.value))} soldiers expected`))));
  }

  function cardView(c, extra = '') {
    return h('div', { class: `dcard ${c.kind}${c.usable ? ' usable' : ''}` }, h('div', { class: 'dcard-kind small' }, c.kind === 'item' ? 'Magic Item' : 'Companion', extra),
      h('strong', {}, c.name), h('div', { class: 'small' }, c.text));
  }

  function hand() {
    const v = g.v;
    if (!v || g.you.seat < 0) return '';
    const me = v.players[g.you.seat];
    const cards = [];
    if (me.companion) cards.push(cardView(me.companion));
    for (const c of me.items || []) cards.push(cardView(c));
    if (v.turn === g.you.seat) for (const c of v.drawn || []) cards.push(cardView(c, ' · drawn this turn'));
    return h('section', { class: 'card hand', 'aria-label': 'your cards' }, h('h2', {}, 'Your cards'),
      h('div', { class: 'dcards' }, cards.length ? cards : h('span', { class: 'muted' }, 'No cards')),
      h('p', { class: 'muted small' }, `You may hold ${me.item_limit} Magic Item${me.item_limit > 1 ? 's' : ''} at the end of a turn. Only you see your items.`));
  }

  function players() {
    const v = g.v;
    return h('section', { class: 'card scoreboard', 'aria-label': 'players' }, h('h2', {}, 'Soldiers'),
      h('table', {}, h('tbody', {}, g.table.seats.map((s, i) => {
        const p = v ? shownPlayer(i) : null;
        const turn = v && v.turn === i && v.phase !== 'over';
        const defending = v && v.brawl && v.brawl.defender === i;
        const won = v && (v.winners || []).includes(i);
        return h('tr', { class: [turn ? 'turn' : '', won ? 'won' : '', i === g.you.seat ? 'you' : ''].join(' ') },
          h('td', {}, h('div', { class: 'who' }, turn ? h('span', { class: 'dot', 'aria-label': 'to play' }) : '', s.free ? h('em', { class: 'muted' }, 'free seat') : s.name,
            s.bot ? h('span', { class: 'tag' }, 'bot') : '', defending ? h('span', { class: 'tag defending' }, v.to_act === i ? 'defending: to act' : 'defending') : '', i === g.you.seat ? h('span', { class: 'tag you' }, 'you') : '', won ? h('span', { class: 'tag win' }, 'winner') : ''),
          p ? h('div', { class: 'muted small' }, p.companion ? p.companion.name : '', ` · ${p.item_count} item${p.item_count === 1 ? '' : 's'}`) : ''),
          h('td', { class: 'num', 'data-soldiers': p ? p.soldiers : '' }, p ? fmt(p.soldiers) : '–'));
      }))),
      v ? h('p', { class: 'muted small' }, `The Final Battle needs ${fmt(g.table.rules.battle_minimum)} soldiers.`) : '',
      v && (v.companion_discard || []).length ? h('p', { class: 'muted small', id: 'companion-discard' }, 'Dismissed Companions: ', v.companion_discard.map((c) => c.name).join(', ')) : '');
  }

  // oddsChart draws P(slay the dragon) by soldiers brought, with each
  // player's soldiers marked on the curve.
  function oddsChart() {
    if (!g.odds) return '';
    const rows = g.odds.rows, W = 280, H = 150, L = 36, B = 22, T = 8, R = 8;
    const maxS = rows[rows.length - 1].soldiers;
    const x = (s) => L + (W - L - R) * Math.min(s, maxS) / maxS, y = (p) => T + (H - T - B) * (1 - p);
    const at = (s) => {
      if (s <= rows[0].soldiers) return rows[0].p_win * s / rows[0].soldiers;
      for (let i = 1; i < rows.length; i++) if (s <= rows[i].soldiers) {
        const a = rows[i - 1], b = rows[i], f = (s - a.soldiers) / (b.soldiers - a.soldiers);
        return a.p_win + f * (b.p_win - a.p_win);
      }
      return rows[rows.length - 1].p_win;
    };
    const c = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'odds-chart', role: 'img', 'aria-label': 'chance to slay the dragon by soldiers brought' });
    for (const p of [0, 0.5, 1]) {
      c.appendChild(svg('line', { x1: L, x2: W - R, y1: y(p), y2: y(p), class: 'grid' }));
      c.appendChild(svg('text', { x: L - 4, y: y(p) + 4, 'text-anchor': 'end', class: 'axis' }, `${p * 100}%`));
    }
    for (const s of [0, 5000, 10000, 15000, 20000].filter((s) => s <= maxS)) c.appendChild(svg('text', { x: x(s), y: H - 6, 'text-anchor': 'middle', class: 'axis' }, s ? `${s / 1000}k` : '0'));
    const min = g.odds.battle_minimum;
    c.appendChild(svg('rect', { x: L, y: T, width: x(min) - L, height: H - T - B, class: 'below-min' }));
    c.appendChild(svg('polyline', { points: [[0, 0], ...rows.map((r) => [r.soldiers, r.p_win])].map(([s, p]) => `${x(s).toFixed(1)},${y(p).toFixed(1)}`).join(' '), class: 'curve' }));
    if (g.v) g.v.players.map((_, i) => shownPlayer(i)).forEach((p, i) => {
      const cx = x(p.soldiers), cy = y(at(p.soldiers));
      c.appendChild(svg('circle', { cx, cy, r: i === g.you.seat ? 6 : 4.5, class: `mark${i === g.you.seat ? ' me' : ''} seat${i}` }, svg('title', {}, `${names()[i]}: ${fmt(p.soldiers)} soldiers, ${pct(at(p.soldiers))}`)));
    });
    const me = g.v && g.you.seat >= 0 ? shownPlayer(g.you.seat) : null;
    return h('section', { class: 'card odds', 'aria-label': 'battle odds' }, h('h2', {}, 'Final Battle odds'), c,
      h('p', { class: 'muted small' }, me ? `With your ${fmt(me.soldiers)} soldiers: ${pct(at(me.soldiers))} to slay the dragon${me.soldiers < min ? ` (you need ${fmt(min)} to attack)` : ''}.` : 'Chance to slay the dragon by soldiers brought.',
        ' Shaded: too few to attack.'));
  }

  function logBox() {
    const list = h('ol', { class: 'log', 'aria-live': 'polite' }, shownLog().slice(-100).map((l) => h('li', { class: `ev-${l.kind}` }, l.text)));
    requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
    return h('section', { class: 'card logbox', 'aria-label': 'log' }, h('h2', {}, 'Log'), list);
  }

  const analysis = analysisView(id, () => draw());

  function endScreen() {
    const v = g.v;
    if (!v || v.phase !== 'over') return '';
    const w = (v.winners || []).map((i) => names()[i]);
    const youWon = (v.winners || []).includes(g.you.seat);
    const order = v.players.map((p, i) => [p, i]).sort((a, b) => b[0].soldiers - a[0].soldiers);
    return h('section', { class: 'card end', id: 'end', 'aria-label': 'game over' },
      h('h2', {}, youWon ? (v.slain ? 'You slew the dragon!' : 'You win!') : `${w.join(' and ')} ${w.length > 1 ? 'share the win' : v.slain ? 'slew the dragon' : 'wins'}`),
      h('ol', { class: 'final' }, order.map(([p, i]) => h('li', {}, nameEl(names()[i]), h('strong', {}, `${fmt(p.soldiers)} soldiers`)))),
      ratingChange(g.table, g.you.seat),
      h('h3', {}, 'Decisions'), analysis(),
      h('p', { class: 'muted small mono' }, 'Seed: ', h('span', { class: 'wrap' }, g.table.seed || '')),
      h('p', { class: 'muted small' }, 'Its SHA-256 is the commitment shown before the first throw; the record replays every throw from it.'),
      h('p', { class: 'row gap' },
        h('a', { class: 'button', id: 'download', href: `/api/tables/${id}/record`, download: `dragon-${id}.json` }, 'Download the record'),
        h('a', { class: 'button', href: `/replay/${id}` }, 'Replay'),
        rematchBox(g, id, names, draw)),
      g.err ? h('p', { class: 'error', role: 'alert' }, g.err) : '');
  }

  function rulesBox() {
    const r = g.table.rules;
    return h('details', { class: 'card rules' }, h('summary', {}, 'Rules: Dragon Farkle'),
      h('ul', {},
        h('li', {}, 'Recruit: throw for soldiers (1 = 100, 5 = 50, three of a kind …); a Dragon on the event die eats the throw, a Rally doubles a keep or draws a Magic Item.'),
        h('li', {}, `Brawl: you throw ${r.brawl_dice[0]} dice, the defender ${r.brawl_dice[1]}; the winner takes the difference and ${fmt(r.brawl_bonus)} more.`),
        h('li', {}, `Final Battle: with ${fmt(r.battle_minimum)} soldiers; each keep costs its worth; a Rally wounds the dragon ${r.rally_damage}, a Dragon ${r.dragon_damage}; ${r.dragon_health} wounds slay it and win.`),
        h('li', {}, `At most ${r.item_limit} Magic Item at the end of a turn.${r.round_limit ? ` After ${r.round_limit} rounds the most soldiers win.` : ''}`),
        r.card_timing !== 'own_turn' ? h('li', {}, 'Cards in a brawl: after each side\'s throw, a player holding a card usable on it may use it (the defender too) or stand by the throw.') : '',
        r.hire_cost ? h('li', {}, `Hire a Companion at the start of a turn for ${fmt(r.hire_cost)} soldiers (once a turn): keep one of the two.`) : ''),
      h('p', { class: 'muted small' }, 'The cards are this project\'s own, not the official texts.'),
      h('p', { class: 'muted small mono' }, 'Seed commitment (SHA-256): ', h('span', { class: 'wrap' }, g.table.commitment)));
  }

  function draw() {
    if (!g.table) return;
    const v = g.v;
    root.dataset.phase = v ? v.phase : 'waiting';
    root.dataset.mode = v ? v.mode : '';
    root.dataset.mine = myTurn() ? 'yes' : 'no';
    root.dataset.version = v ? v.version : 0;
    root.dataset.online = g.online ? 'yes' : 'no';
    root.dataset.show = g.show ? String(g.show.step) : '';
    root.dataset.toAct = v ? v.to_act : -1;
    root.dataset.keeps = JSON.stringify(v && v.keeps ? v.keeps.map((k) => k.dice) : []);
    root.replaceChildren(
      h('div', { class: 'col main-col' }, endScreen(), v && v.phase === 'over' ? '' : board(), hand(), logBox()),
      h('div', { class: 'col side-col' }, players(), oddsChart(), rulesBox(),
        h('p', { class: 'muted small' }, g.you.seat >= 0 ? `You play seat ${g.you.seat + 1}.` : 'You are watching.', ` ${g.table.watchers} connected.`)));
  }

  connectTable(g, id, banner, onMessage, draw);
  return () => { g.closed = true; clock.stop(); document.removeEventListener('keydown', onKey); if (g.ws) g.ws.close(); };
}
