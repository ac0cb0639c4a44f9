// dragon.js: a Dragon Farkle table, live over the WebSocket. The server
// sends only what this seat may see (its own Magic Items, the others'
// counts). Shown: the event die, the thrown dice to click and keep, the
// turn's pool, the action choice (recruit, brawl, Final Battle), the Rally
// reward, stop / retreat, cards in hand and face up, the dragon's wounds,
// the log, hints and the Final Battle odds chart; a brawl step by step
// (each side's throw, the cards it may use on it, the defender's too) and
// a Companion hire. The page asks the seat the game waits for (to_act),
// the defender during their brawl throw. Keys: 1–6 choose dice by face
// (as on the ordinary table and in the terminal), K keep,
// T throw, S stop, P stand by a brawl throw, H hint.
import { h, api, page, nameEl } from './ui.js';
import { dieSVG, diceRow } from './dice.js';
import { connectTable } from './socket.js';
import { tableClock } from './clock.js';
import { analysisView } from './analysis.js';
import { ratingChange } from './rating.js';
import { rematchBox } from './rematch.js';
import { tournamentLink } from './tourlink.js';
import { msg, errText, num, pct, has } from './i18n.js';
import { adjournedBox } from './adjourn.js';
import { waitingBox, takeSeat, seatWho } from './waiting.js';

// endOrder ranks the players of a finished game by its result: the
// winners first (who slew the dragon may have fewer soldiers than a bot),
// then by soldiers. It returns [player, seat] pairs.
export function endOrder(players, winners) {
  const won = (i) => ((winners || []).includes(i) ? 1 : 0);
  return players.map((p, i) => [p, i]).sort((a, b) => won(b[1]) - won(a[1]) || b[0].soldiers - a[0].soldiers);
}

// localCards names the cards of a view in the page's language (the
// catalogue's card.ID.name and card.ID.text; the server's English where
// the catalogue has none), in place, and returns the view.
export function localCards(v) {
  if (!v) return v;
  const local = (c) => {
    if (!c || !c.id) return;
    if (has(`card.${c.id}.name`)) c.name = msg(`card.${c.id}.name`);
    if (has(`card.${c.id}.text`)) c.text = msg(`card.${c.id}.text`);
  };
  for (const p of v.players || []) { local(p.companion); (p.items || []).forEach(local); }
  for (const k of ['drawn', 'item_discard', 'companion_discard']) (v[k] || []).forEach(local);
  local(v.offer);
  return v;
}

const NS = 'http://www.w3.org/2000/svg';

function svg(tag, attrs = {}, ...kids) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const k of kids) el.appendChild(typeof k === 'string' ? document.createTextNode(k) : k);
  return el;
}

// eventDieSVG draws the event die: blank, rally (a banner star) or dragon.
export function eventDieSVG(face, cls = '') {
  const s = svg('svg', { viewBox: '0 0 100 100', class: `die event ${face} ${cls}`, role: 'img', 'aria-label': msg('web.dr.eventDie', { face: msg(`web.dr.face.${face}`) }) });
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
    case 'recruit': return msg('web.dr.recruit');
    case 'battle': return msg('web.dr.battle');
    case 'brawl': return msg('web.dr.brawl', { name: names[a.target] });
    case 'roll': return msg('web.dr.throw');
    case 'stop': return msg('web.dr.stop');
    case 'retreat': return msg('web.dr.retreat');
    case 'accept': return msg('rematch.accept');
    case 'use': return msg(a.face ? 'web.dr.useOn' : 'web.dr.use', { card: cardName(a.card), face: a.face });
    case 'discard': return msg('web.dr.discard', { card: cardName(a.card) });
    case 'pass': return msg('web.dr.pass');
    case 'hire': return msg('web.dr.hire');
    case 'dismiss': return msg('web.dr.dismiss', { card: cardName(a.card) });
    case 'keep': return msg(a.reward === 'double' ? 'web.dr.keepDouble' : a.reward === 'item' ? 'web.dr.keepItem' : 'web.dr.keep', { dice: (a.keep || []).join('-') });
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
      g.table = m.table; g.v = localCards(m.dragon); g.you = m.you; g.log = m.log; g.sel.clear();
    } else if (m.type === 'update') {
      const before = g.v;
      g.table = { ...m.table, rules: g.table.rules }; g.v = localCards(m.dragon); g.log = g.log.concat(m.log); g.sel.clear(); g.hint = null;
      startShow(m.log, before);
    } else if (m.type === 'error') {
      g.err = errText(m.code, '', m.message);
      setTimeout(() => { g.err = null; draw(); }, 4000);
    } else if (m.type === 'hint') {
      g.hint = m.advice;
    } else if (m.type === 'rematch') {
      g.table = { ...g.table, rematch: m.rematch };
    } else if (m.type === 'failed' || m.type === 'expired') {
      g.table = { ...m.table, rules: g.table.rules };
      g.err = `${msg(m.type === 'expired' ? 'web.expired' : 'web.stopped')}: ${m.reason}`;
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
  const brawlScore = (face, n) => `${num(n || 0)}${face === 'rally' && n ? msg('dragon.tui.show.rally') : face === 'dragon' ? msg('web.dr.dragonNothing') : ''}`;

  function showPanel() {
    const sh = g.show, n = names(), outcome = sh.step >= sh.frames.length;
    const l = outcome ? sh.last : sh.frames[sh.step];
    let text = outcome ? sh.result.text : '';
    if (!outcome) {
      const mine = l.seat === sh.challenger, score = brawlScore(l.face, l.n);
      const vars = { name: n[l.seat], score, against: num(sh.against) };
      if (l.kind === 'card-changed') text = msg(mine ? 'web.dr.cardThrow' : 'web.dr.cardAnswer', vars);
      else text = msg(mine ? 'web.dr.brawlThrow' : 'web.dr.brawlAnswer', vars);
    }
    return h('div', { class: 'brawl-show', id: 'brawl-show', 'data-step': sh.step, role: 'status' },
      h('p', { class: 'small muted' }, msg('web.dr.challenged', { a: n[sh.challenger], b: n[sh.defender] || '' })),
      l ? h('div', { class: 'throw-area', 'aria-label': msg('web.dr.brawlOf', { name: n[l.seat] }) },
        h('div', { class: 'event-box' }, eventDieSVG(l.face || 'blank', 'big-event')), h('span', { class: 'sep' }),
        ...(l.dice || []).map((f) => h('span', { class: 'show-die', 'data-face': f }, dieSVG(f)))) : '',
      h('p', { class: `brawl-label${outcome ? ' outcome' : ''}`, id: 'brawl-label' }, text),
      h('p', { class: 'center' }, h('button', { class: 'small ghost', id: 'skip-brawl', onclick: skipShow }, msg('web.dr.skip'), ' ', h('kbd', {}, 'S'))));
  }

  // brawlPanel draws the brawl throw the game waits on: its dice, its
  // score and, for the defender, the challenger's settled throw to beat.
  function brawlPanel() {
    const v = g.v, b = v.brawl, n = names(), thrower = b.defending ? b.defender : v.turn;
    const whose = (i) => i === g.you.seat ? msg('web.dr.yourThrow') : msg('web.dr.theirThrow', { name: n[i] });
    return h('div', { class: 'brawl-now', id: 'brawl-now' },
      h('p', { class: 'small muted' }, msg('web.dr.challenged', { a: n[v.turn], b: n[b.defender] })),
      b.defending ? h('p', { class: 'center small', id: 'brawl-settled' }, `${whose(v.turn)} `, diceRow(b.throw || []), ` ${msg('web.dr.andEvent', { event: msg(`web.dr.a.${b.event || 'blank'}`), n: num(b.score) })}`) : '',
      h('div', { class: 'throw-area', 'aria-label': msg('web.dr.brawlOf', { name: n[thrower] }) },
        h('div', { class: 'event-box', id: 'event' }, eventDieSVG(v.event, 'big-event')), h('span', { class: 'sep' }),
        ...(v.throw || []).map((f) => h('span', { class: 'show-die', 'data-face': f }, dieSVG(f)))),
      h('p', { class: 'brawl-label', id: 'brawl-score' }, msg(b.defending ? 'web.dr.scoresAgainst' : 'web.dr.scores', { who: whose(thrower), score: brawlScore(v.event, v.brawl_score), against: num(b.score) })));
  }

  // hirePanel shows the Companion held and the one hired side by side,
  // each with the button that keeps it (dismissing the other).
  function hirePanel() {
    const v = g.v, own = v.players[v.turn].companion, offer = v.offer, mine = myTurn();
    const side = (c, other, id, tag) => h('div', { class: 'hire-side' }, cardView(c, tag),
      mine ? h('button', { class: 'big', id, 'data-kind': 'dismiss', 'data-card': other.id, onclick: () => act({ kind: 'dismiss', card: other.id, target: 0 }) }, msg('web.dr.keepCard', { card: c.name })) : '');
    return h('div', { class: 'dcards hire', id: 'hire' }, side(offer, own, 'keep-new', ` · ${msg('web.dr.hired')}`), side(own, offer, 'keep-own', ` · ${msg('web.dr.yours')}`));
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
  // chooseFace chooses one more die showing face f, or unchooses every
  // die showing f once all are chosen: the number keys pick by face.
  function chooseFace(f) {
    if (!myTurn() || g.v.phase !== 'keep') return;
    const at = (g.v.throw || []).map((x, i) => x === f ? i : -1).filter((i) => i >= 0);
    if (!at.length) { g.err = msg('web.noFace', { face: f, dice: (g.v.throw || []).join(' ') }); draw(); return; }
    const free = at.find((i) => !g.sel.has(i));
    if (free !== undefined || forced()) { toggle(free ?? at[0]); return; }
    for (const i of at) g.sel.delete(i);
    draw();
  }
  function toggle(i) {
    if (!myTurn() || g.v.phase !== 'keep') return;
    if (forced()) {
      g.err = msg('web.dr.forced');
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
    else if (k >= '1' && k <= '6') { chooseFace(Number(k)); e.preventDefault(); }
    else if (k === 'k') { keepSel(); e.preventDefault(); }
    else if (k === 't' || k === 'r') { first('roll'); e.preventDefault(); }
    else if (k === 's') { first('stop'); e.preventDefault(); }
    else if (k === 'p') { first('pass'); e.preventDefault(); }
    else if (k === 'h') { askHint(); e.preventDefault(); }
  };
  document.addEventListener('keydown', onKey);

  function askHint() { if (myTurn()) send({ type: 'hint' }); }

  const take = () => takeSeat(g, id, draw);

  function wounds() {
    const v = g.v, n = v.dragon_health;
    return h('div', { class: 'wounds', 'aria-label': msg('web.dr.woundsOf', { n: v.damage, total: n }) },
      h('span', { class: 'small' }, msg('web.dr.wounds')),
      Array.from({ length: n }, (_, i) => h('span', { class: `wound${i < v.damage ? ' hit' : ''}` })));
  }

  function statusText() {
    const v = g.v, mine = myTurn();
    if (v.phase === 'over') return msg('status.over');
    const who = names()[v.to_act], b = v.brawl;
    const bot = g.table.seats[v.to_act] && g.table.seats[v.to_act].bot;
    if (!mine && b && b.defending) return msg('web.dr.waitDefend', { name: who });
    if (!mine) return msg(bot ? 'status.thinking' : 'status.playing', { name: who });
    switch (v.phase) {
      case 'choose': return msg('web.dr.st.choose');
      case 'brawl': return b.defending ? msg('web.dr.st.defend', { name: names()[v.turn] }) : msg('web.dr.st.brawl');
      case 'hire': return msg('web.dr.st.hire');
      case 'keep':
        if (legal('accept').length && !legal('keep').length) return msg('web.dr.st.nothing');
        if (v.mode === 'battle') return msg('web.dr.st.battle');
        return msg(v.event === 'dragon' ? 'web.dr.st.dragon' : 'web.dr.st.keep');
      case 'evaded': return msg('web.dr.st.evaded');
      case 'roll': return msg(v.mode === 'battle' ? 'web.dr.st.rollRetreat' : 'web.dr.st.rollStop', { n: v.dice });
      case 'discard': return msg('web.dr.st.discard');
      default: return msg('status.mine');
    }
  }

  function board() {
    const v = g.v;
    if (!v) return waitingBox(g, take);
    const mine = myTurn();
    const ph = v.phase;
    const thrown = (v.throw || []);
    const { faces, keeps, info, values, worth } = ph === 'keep' ? selection() : { faces: [], keeps: [], info: null, values: [], worth: () => 0 };
    const diceArea = h('div', { class: 'throw-area', role: 'group', 'aria-label': msg('web.dice') },
      thrown.length && (ph === 'keep' || ph === 'evaded') ? [
        h('div', { class: 'event-box', id: 'event' }, eventDieSVG(v.event, 'big-event'),
          h('span', { class: 'small' }, msg(`web.dr.ev.${v.event === 'rally' || v.event === 'dragon' ? v.event : 'blank'}`))),
        h('span', { class: 'sep' }),
        ...thrown.map((f, i) => h('button', { class: `die-btn${g.sel.has(i) ? ' sel' : ''}`, disabled: !(mine && ph === 'keep'), 'data-face': f,
          'data-i': i, 'aria-pressed': g.sel.has(i) ? 'true' : 'false', 'aria-label': msg('web.die', { n: i + 1, face: f }), title: mine && ph === 'keep' ? msg('web.dieKey', { face: f }) : false, onclick: () => toggle(i) }, dieSVG(f), h('kbd', {}, f))),
      ] : h('span', { class: 'muted' }, ph === 'choose' ? (mine ? msg('web.dr.chooseAction') : '') : ph === 'over' ? '' : msg('dice.toThrow', { n: v.dice })));
    let selText = '\u00a0';
    if (mine && ph === 'keep') {
      if (faces.length === 0) selText = keepsLeft() ? msg('sel.none') : msg('web.dr.noKeep');
      else if (info && forced()) selText = msg('web.dr.eats', { n: num(info.eaten), dice: faces.join('-') });
      else if (info) selText = previewText(v, info, values);
      else selText = msg('sel.bad');
    }
    const keptRow = (v.kept || []).length && ph !== 'choose' && ph !== 'over' && ph !== 'brawl' ? h('p', { class: 'center small kept-row' }, msg('web.dr.setAside'), ' ', diceRow(v.kept)) : '';
    function keepsLeft() { return legal('keep').length > 0; }

    const btn = (a, cls = '') => h('button', { class: `big ${cls}`, 'data-kind': a.kind, onclick: () => act(a) }, label(a, cardName, names()));
    const buttons = [];
    if (mine) {
      if (ph === 'choose') {
        legal('recruit').forEach((a) => buttons.push(btn(a, 'primary')));
        legal('brawl').forEach((a) => buttons.push(btn(a)));
        const bat = legal('battle');
        if (bat.length) buttons.push(btn(bat[0], 'danger'));
        else buttons.push(h('button', { class: 'big', disabled: true, title: msg('web.dr.battleNeeds', { n: num(g.table.rules.battle_minimum) }) }, msg('web.dr.battleNeedsShort', { n: num(g.table.rules.battle_minimum) })));
        legal('hire').forEach((a) => buttons.push(h('button', { class: 'big', id: 'hire-companion', 'data-kind': 'hire', onclick: () => act(a) }, msg('dragon.tui.hireItem', { n: num(v.hire_cost) }))));
      } else if (ph === 'brawl') {
        useButtons(buttons);
        legal('pass').forEach((a) => buttons.push(h('button', { class: 'big primary', id: 'pass', 'data-kind': 'pass', onclick: () => act(a) }, msg('web.dr.passScore', { n: num(v.brawl_score) }), ' ', h('kbd', {}, 'P'))));
      } else if (ph === 'keep') {
        if (keeps.length === 0) buttons.push(h('button', { class: 'big primary', id: 'keep', disabled: true }, msg('web.dr.keepBtn'), ' ', h('kbd', {}, 'K')));
        keeps.forEach((a, i) => buttons.push(h('button', { class: `big ${i === 0 ? 'primary' : 'bank'}`, id: i === 0 ? 'keep' : null, 'data-kind': 'keep', onclick: () => act(a) },
          a.reward === 'double' ? msg('web.dr.keepDoubleBtn', { n: num(worth(a)) }) : a.reward === 'item' ? msg('web.dr.keepItemBtn', { n: num(worth(a)) }) : msg('web.dr.keepBtn'), i === 0 ? ' ' : '', i === 0 ? h('kbd', {}, 'K') : '')));
        legal('accept').forEach((a) => buttons.push(btn(a)));
        useButtons(buttons);
      } else if (ph === 'roll' || ph === 'evaded') {
        legal('roll').forEach((a) => buttons.push(h('button', { class: 'big primary', id: 'roll', 'data-kind': 'roll', onclick: () => act(a) }, msg('btn.throw', { n: v.dice }), ' ', h('kbd', {}, 'T'))));
        legal('stop').forEach((a) => buttons.push(h('button', { class: 'big bank', id: 'stop', 'data-kind': 'stop', onclick: () => act(a) }, msg('web.dr.stopBank', { n: num(v.pool) }), ' ', h('kbd', {}, 'S'))));
        legal('retreat').forEach((a) => buttons.push(btn(a)));
      } else if (ph === 'discard') {
        legal('discard').forEach((a) => buttons.push(btn(a)));
      }
      buttons.push(h('button', { class: 'big ghost', id: 'hint', onclick: askHint }, msg('btn.hint'), h('kbd', {}, 'H')));
    }
    const mode = ['battle', 'recruit', 'brawl'].includes(v.mode) ? msg(`web.dr.mode.${v.mode}`) : '';
    return h('section', { class: `card play${mine ? ' mine' : ''}${v.mode === 'battle' ? ' battle' : ''}`, 'aria-label': msg('web.table') },
      clock.badge(),
      h('div', { class: 'status-line' },
        h('div', {}, h('h2', { id: 'status' }, statusText()), h('div', { class: 'muted small' }, `${msg('web.tour.round', { n: v.round })}${mode ? ' · ' + mode : ''}`)),
        v.mode === 'battle' ? wounds() : v.mode === 'brawl' || ph === 'hire' ? '' : h('div', { class: 'turn-total' }, h('span', { class: 'muted small' }, msg('web.rp.pool')), h('strong', { id: 'pool' }, num(v.pool)))),
      g.show ? showPanel() : ph === 'brawl' && v.brawl ? brawlPanel() : ph === 'hire' && v.offer ? hirePanel() : diceArea,
      h('p', { class: `selection${info ? ' ok' : ''}`, id: 'selection', 'aria-live': 'polite' }, selText),
      keptRow,
      v.drawn_count ? h('p', { class: 'center small' }, msg('web.dr.drawn', { n: v.drawn_count })) : '',
      h('div', { class: 'buttons' }, buttons),
      g.err ? h('p', { class: 'error', role: 'alert' }, g.err) : '',
      hintBox());
  }

  // useButtons adds a button for every card use legal now, grouped by card.
  function useButtons(buttons) {
    const uses = new Map();
    for (const a of legal('use')) { if (!uses.has(a.card)) uses.set(a.card, []); uses.get(a.card).push(a); }
    for (const [cid, acts] of uses) {
      buttons.push(h('div', { class: 'uses' }, h('span', { class: 'small' }, msg(acts[0].face ? 'web.dr.useCardOn' : 'web.dr.use', { card: cardName(cid) })),
        acts.map((a) => h('button', { class: 'small ghost', 'data-kind': 'use', 'aria-label': label(a, cardName, names()), title: label(a, cardName, names()), onclick: () => act(a) },
          a.face ? dieSVG(a.face, 'small') : msg('web.dr.useWord')))));
    }
  }

  // previewText says what keeping the chosen dice does, in the game's own
  // figures (dragon.KeepValue): what it costs in battle, what the dragon
  // eats, or the soldiers recruited with the cards' bonuses.
  function previewText(v, info, values) {
    const cards = (kv) => kv.bonus ? msg('web.dr.fromCards', { points: num(kv.points), bonus: num(kv.bonus) }) : '';
    if (v.mode === 'battle') {
      const me = v.players[v.turn];
      return msg('web.dr.costs', { n: num(info.cost), of: num(me.soldiers) }) + (info.discount ? msg('dragon.tui.discount', { n: num(info.discount) }) : '');
    }
    if (v.event === 'dragon') return msg('web.dr.eaten', { n: num(info.eaten) }) + cards(info);
    const d = values.find((k) => k.reward === 'double'), it = values.find((k) => k.reward === 'item');
    if (d && it) return msg('web.dr.recruitsOr', { d: num(d.soldiers), i: num(it.soldiers) }) + (it.bonus ? msg('dragon.tui.withCards', { n: num(it.bonus) }) : '');
    return msg('web.dr.recruits', { n: num(info.soldiers) }) + cards(info);
  }

  function hintBox() {
    if (!g.hint) return '';
    if (!g.hint.length) return h('div', { class: 'hint' }, msg('web.dr.noHint'));
    const best = Math.max(...g.hint.map((a) => a.value));
    return h('div', { class: 'hint', id: 'hint-box' }, h('strong', {}, msg('web.dr.hint')), h('ol', {}, g.hint.map((a) =>
      h('li', { class: a.value === best ? 'best' : '' }, `${label(a.action, cardName, names())}: `,
        a.unit === 'p_win' ? msg('web.dr.toSlay', { p: pct(a.value) }) : msg('web.dr.expected', { n: `${a.value >= 0 ? '+' : ''}${num(Math.round(a.value))}` })))));
  }

  function cardView(c, extra = '') {
    return h('div', { class: `dcard ${c.kind}${c.usable ? ' usable' : ''}` }, h('div', { class: 'dcard-kind small' }, msg(c.kind === 'item' ? 'web.dr.item' : 'web.dr.companion'), extra),
      h('strong', {}, c.name), h('div', { class: 'small' }, c.text));
  }

  function hand() {
    const v = g.v;
    if (!v || g.you.seat < 0) return '';
    const me = v.players[g.you.seat];
    const cards = [];
    if (me.companion) cards.push(cardView(me.companion));
    for (const c of me.items || []) cards.push(cardView(c));
    if (v.turn === g.you.seat) for (const c of v.drawn || []) cards.push(cardView(c, ` · ${msg('web.dr.drawnNow')}`));
    return h('section', { class: 'card hand', 'aria-label': msg('web.dr.yourCards') }, h('h2', {}, msg('web.dr.yourCards')),
      h('div', { class: 'dcards' }, cards.length ? cards : h('span', { class: 'muted' }, msg('web.dr.noCards'))),
      h('p', { class: 'muted small' }, msg('web.dr.itemLimit', { n: me.item_limit })));
  }

  function players() {
    const v = g.v;
    return h('section', { class: 'card scoreboard', 'aria-label': msg('web.dr.players') }, h('h2', {}, msg('web.rp.soldiers')),
      h('table', {}, h('tbody', {}, g.table.seats.map((s, i) => {
        const p = v ? shownPlayer(i) : null;
        const turn = v && v.turn === i && v.phase !== 'over';
        const defending = v && v.brawl && v.brawl.defender === i;
        const won = v && (v.winners || []).includes(i);
        return h('tr', { class: [turn ? 'turn' : '', won ? 'won' : '', i === g.you.seat ? 'you' : ''].join(' ') },
          h('td', {}, h('div', { class: 'who' }, turn ? h('span', { class: 'dot', 'aria-label': msg('web.toPlay') }) : '', seatWho(s),
            s.bot ? h('span', { class: 'tag' }, msg('tag.bot')) : '', defending ? h('span', { class: 'tag defending' }, msg(v.to_act === i ? 'web.dr.defendingAct' : 'dragon.tui.defending')) : '', i === g.you.seat ? h('span', { class: 'tag you' }, msg('tag.you')) : '', won ? h('span', { class: 'tag win' }, msg('tag.winner')) : ''),
          p ? h('div', { class: 'muted small' }, p.companion ? p.companion.name : '', ` · ${msg('web.dr.items', { n: p.item_count })}`) : ''),
          h('td', { class: 'num', 'data-soldiers': p ? p.soldiers : '' }, p ? num(p.soldiers) : '–'));
      }))),
      v ? h('p', { class: 'muted small' }, `${msg('web.dr.battleNeeds', { n: num(g.table.rules.battle_minimum) })}.`) : '',
      v && (v.companion_discard || []).length ? h('p', { class: 'muted small', id: 'companion-discard' }, msg('web.dr.dismissed'), ' ', v.companion_discard.map((c) => c.name).join(', ')) : '');
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
    const c = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'odds-chart', role: 'img', 'aria-label': msg('web.dr.chance') });
    for (const p of [0, 0.5, 1]) {
      c.appendChild(svg('line', { x1: L, x2: W - R, y1: y(p), y2: y(p), class: 'grid' }));
      c.appendChild(svg('text', { x: L - 4, y: y(p) + 4, 'text-anchor': 'end', class: 'axis' }, pct(p, 0)));
    }
    for (const s of [0, 5000, 10000, 15000, 20000].filter((s) => s <= maxS)) c.appendChild(svg('text', { x: x(s), y: H - 6, 'text-anchor': 'middle', class: 'axis' }, s ? `${s / 1000}k` : '0'));
    const min = g.odds.battle_minimum;
    c.appendChild(svg('rect', { x: L, y: T, width: x(min) - L, height: H - T - B, class: 'below-min' }));
    c.appendChild(svg('polyline', { points: [[0, 0], ...rows.map((r) => [r.soldiers, r.p_win])].map(([s, p]) => `${x(s).toFixed(1)},${y(p).toFixed(1)}`).join(' '), class: 'curve' }));
    if (g.v) g.v.players.map((_, i) => shownPlayer(i)).forEach((p, i) => {
      const cx = x(p.soldiers), cy = y(at(p.soldiers));
      c.appendChild(svg('circle', { cx, cy, r: i === g.you.seat ? 6 : 4.5, class: `mark${i === g.you.seat ? ' me' : ''} seat${i}` }, svg('title', {}, msg('web.dr.mark', { name: names()[i], n: num(p.soldiers), p: pct(at(p.soldiers)) }))));
    });
    const me = g.v && g.you.seat >= 0 ? shownPlayer(g.you.seat) : null;
    return h('section', { class: 'card odds', 'aria-label': msg('web.dr.odds') }, h('h2', {}, msg('web.dr.odds')), c,
      h('p', { class: 'muted small' }, me ? msg(me.soldiers < min ? 'web.dr.withYoursNeed' : 'web.dr.withYours', { n: num(me.soldiers), p: pct(at(me.soldiers)), min: num(min) }) : `${msg('web.dr.chance')}.`,
        ' ', msg('web.dr.shaded')));
  }

  function logBox() {
    const list = h('ol', { class: 'log', 'aria-live': 'polite' }, shownLog().slice(-100).map((l) => h('li', { class: `ev-${l.kind}` }, l.text)));
    requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
    return h('section', { class: 'card logbox', 'aria-label': msg('log.title') }, h('h2', {}, msg('log.title')), list);
  }

  const analysis = analysisView(id, () => draw());

  function endScreen() {
    const v = g.v;
    if (!v || v.phase !== 'over') return '';
    const w = (v.winners || []).map((i) => names()[i]);
    const youWon = (v.winners || []).includes(g.you.seat);
    const order = endOrder(v.players, v.winners);
    return h('section', { class: 'card end', id: 'end', 'aria-label': msg('status.over') },
      h('h2', {}, youWon ? msg(v.slain ? 'web.dr.youSlew' : 'end.youWin') : msg(w.length > 1 ? 'end.share' : v.slain ? 'web.dr.slew' : 'end.wins', { names: w.join(msg('end.and')) })),
      h('ol', { class: 'final' }, order.map(([p, i]) => h('li', {}, nameEl(names()[i]), h('strong', {}, msg('dragon.tui.soldiers', { n: num(p.soldiers) }))))),
      ratingChange(g.table, g.you.seat),
      h('h3', {}, msg('end.decisions')), analysis(),
      h('p', { class: 'muted small mono' }, msg('web.seed'), ' ', h('span', { class: 'wrap' }, g.table.seed || '')),
      h('p', { class: 'muted small' }, msg('web.dr.seedCheck')),
      h('p', { class: 'row gap' },
        h('a', { class: 'button', id: 'download', href: `/api/tables/${id}/record`, download: `dragon-${id}.json` }, msg('end.download')),
        h('a', { class: 'button', href: `/replay/${id}` }, msg('end.replay')),
        rematchBox(g, id, names, draw)),
      g.err ? h('p', { class: 'error', role: 'alert' }, g.err) : '');
  }

  function rulesBox() {
    const r = g.table.rules;
    return h('details', { class: 'card rules' }, h('summary', {}, msg('rules.title', { name: 'Dragon Farkle' })),
      h('ul', {},
        h('li', {}, msg('web.dr.r.recruit')),
        h('li', {}, msg('web.dr.r.brawl', { a: r.brawl_dice[0], b: r.brawl_dice[1], bonus: num(r.brawl_bonus) })),
        h('li', {}, msg('web.dr.r.battle', { min: num(r.battle_minimum), rally: r.rally_damage, dragon: r.dragon_damage, health: r.dragon_health })),
        h('li', {}, msg('web.dr.r.items', { n: r.item_limit }) + (r.round_limit ? ` ${msg('web.dr.r.rounds', { n: r.round_limit })}` : '')),
        r.card_timing !== 'own_turn' ? h('li', {}, msg('web.dr.r.cards')) : '',
        r.hire_cost ? h('li', {}, msg('web.dr.r.hire', { n: num(r.hire_cost) })) : ''),
      h('p', { class: 'muted small' }, msg('web.dr.r.own')),
      h('p', { class: 'muted small mono' }, msg('web.commitment'), ' ', h('span', { class: 'wrap' }, g.table.commitment)));
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
      h('div', { class: 'col main-col' }, endScreen(), g.table.status === 'adjourned' ? adjournedBox(id, g.you.seat >= 0) : v && v.phase === 'over' ? '' : board(), hand(), logBox()),
      h('div', { class: 'col side-col' }, tournamentLink(g.table), players(), oddsChart(), rulesBox(),
        h('p', { class: 'muted small' }, g.you.seat >= 0 ? msg('seat.you', { n: g.you.seat + 1 }) : msg('seat.watching'), msg('seat.connected', { n: g.table.watchers }))));
  }

  connectTable(g, id, banner, onMessage, draw);
  return () => { g.closed = true; clock.stop(); document.removeEventListener('keydown', onKey); if (g.ws) g.ws.close(); };
}
