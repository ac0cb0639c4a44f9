// table.js: a table, live over the WebSocket: dice to click, the points of
// the selection, throw and bank, the scoreboard, the log, hints, the rules
// and the end-of-game screen. Keys: 1–6 choose dice by face, as the
// terminal does and as every hint speaks ("keep 1 5": press 1, then 5; a
// second 5 picks a second die showing 5, and once every die showing 5 is
// chosen, 5 unchooses them all), T keep-and-throw (or throw), B
// keep-and-bank (or bank), H hint, R roll.
import { h, api, page, nameEl, rulesName } from './ui.js';
import { dieSVG, diceRow, keptIndices } from './dice.js';
import { connectTable } from './socket.js';
import { explorerLink } from './explorelink.js';
import { tableClock } from './clock.js';
import { adjournedBox } from './adjourn.js';
import { analysisView } from './analysis.js';
import { ratingChange } from './rating.js';
import { rematchBox } from './rematch.js';
import { msg, errText, num, pct } from './i18n.js';
import { feel } from './feel.js';
import { tournamentLink } from './tourlink.js';
import { solverWhy } from './words.js';
import { waitingBox, takeSeat, seatWho } from './waiting.js';

// opts.connect replaces the server's WebSocket (socket.js's connectTable,
// with the same arguments): local.js plays a local game through it, and
// its table says local. opts.endExtras(g) and opts.side(g) give a local
// game's end screen and side notes in place of the server's.
export function tablePage(id, opts = {}) {
  const g = { id, ws: null, table: null, st: null, you: { seat: -1 }, log: [], sel: new Set(), pending: null, closed: false, retry: 0 };
  const root = h('div', { id: 'game', class: 'game' });
  const banner = h('div', { class: 'banner', role: 'status', hidden: true });
  page(banner, root);

  const send = (m) => { if (g.ws && g.ws.readyState === 1) g.ws.send(JSON.stringify(m)); };
  // act sends an action; until the server answers (an update or an
  // error) the page sends no other: a second click does nothing.
  const act = (type, dice) => { g.inflight = true; send({ type: 'action', version: g.st.version, action: dice ? { type, dice } : { type } }); };

  // A farkle's dead dice stay on the table until the next throw, and at
  // least deadMin ms: a bot's quick throw does not hide them at once.
  const deadMin = 1500;
  function clearDead(live) {
    const d = g.dead;
    const left = deadMin - (performance.now() - d.at);
    if (!live || left <= 0) { g.dead = null; return; }
    d.leaving = true;
    setTimeout(() => { if (g.dead === d) { g.dead = null; draw(); } }, left);
  }

  // noteEvents reads the log lines of the game as they come (live) or all
  // at once on connecting: the farkle to show, hot dice, the dice of the
  // last keep, and whether the dice were just thrown (to animate them).
  function noteEvents(lines, live) {
    let thrown = [];
    for (const l of lines) {
      if (l.type === 'throw') {
        thrown = l.dice || [];
        if (g.hot && g.hot.throws++ > 0) g.hot = null; // hot dice show through the throw of all the dice again
        g.lastKeep = null;
        if (live) { g.rolled = true; feel.thrown(); }
        if (g.dead) clearDead(live);
      } else if (l.type === 'keep') g.lastKeep = l.dice || [];
      else if (l.type === 'farkle') live && feel.farkle(), g.hot = null, g.dead = { player: l.player, dice: thrown, text: l.text, at: live ? performance.now() : -Infinity };
      else if (l.type === 'hot-dice' || l.type === 'six-dice-nothing') g.hot = { type: l.type, text: l.text, throws: 0 };
      else if (l.type === 'turn' || l.type === 'game-over') { g.hot = null; g.lastKeep = null; }
    }
  }

  function onMessage(m) {
    if (m.type === 'welcome') {
      g.table = m.table; g.st = m.state; g.you = m.you; g.log = m.log; g.sel.clear(); g.inflight = false;
      g.dead = null; noteEvents(g.log, false);
    } else if (m.type === 'update') {
      g.table = { ...m.table, rules: g.table.rules }; g.st = m.state; g.log = g.log.concat(m.log); g.sel.clear();
      if (m.you) g.you = m.you; // a local game: the person at the phone whose turn it is
      g.inflight = false;
      noteEvents(m.log, true);
      if (g.pending && g.st.actor === g.you.seat && g.st.step === 'choose') {
        const then = g.pending; g.pending = null;
        if (g.st.legal.some((l) => l.type === then)) { act(then); }
      } else g.pending = null;
      g.hint = null;
    } else if (m.type === 'error') {
      g.pending = null; g.inflight = false;
      g.err = errText(m.code, '', m.message);
    } else if (m.type === 'hint') {
      g.measureChanged = g.measure && m.advice.measure !== 'odds' && m.advice.measure !== g.measure ? g.measure : null;
      if (m.advice.measure !== 'odds') g.measure = m.advice.measure;
      g.hint = m.advice;
    } else if (m.type === 'rematch') {
      g.table = { ...g.table, rematch: m.rematch };
    } else if (m.type === 'failed' || m.type === 'expired') {
      g.table = { ...m.table, rules: g.table.rules }; g.pending = null;
    }
    if (m.table) clock.seen(m.type);
    draw();
    if (m.type === 'error') setTimeout(() => { g.err = null; draw(); }, 4000);
    if (m.table) notesLater();
  }

  // While a bot's table is being prepared its seat's note says how far:
  // the note is asked for again every few seconds until it changes to
  // something else (the table is there, or refused).
  function notesLater() {
    clearTimeout(g.notesTimer);
    const preparing = (t) => (t.seats || []).some((s) => s.why && s.why.key.startsWith('solved.why.preparing'));
    if (g.closed || !preparing(g.table)) return;
    g.notesTimer = setTimeout(async () => {
      try {
        const t = await api('GET', `/api/tables/${id}`);
        g.table = { ...g.table, seats: t.seats };
        draw();
      } catch { /* the next update brings the notes */ }
      notesLater();
    }, 3000);
  }

  const seatTurn = () => g.st && g.st.actor === g.you.seat && g.you.seat >= 0 && g.st.phase !== 'over';
  const myTurn = () => g.online && seatTurn();
  const names = () => g.table.seats.map((s) => s.name);
  const clock = tableClock(g, names, () => !g.st || g.st.phase === 'over');

  // selection returns the faces selected and the legal keep they form, if any.
  function selection() {
    const throwFaces = g.st.throw || [];
    const faces = [...g.sel].map((i) => throwFaces[i]).sort((a, b) => a - b);
    const keep = (g.st.legal || []).find((l) => l.type === 'keep' && l.dice.length === faces.length && l.dice.every((d, i) => d === faces[i]));
    return { faces, keep };
  }

  function toggle(i) {
    if (!myTurn() || g.st.step !== 'keep') return;
    if (g.sel.has(i)) g.sel.delete(i); else g.sel.add(i);
    draw();
  }

  // chooseFace chooses one more die showing face f (the first not chosen),
  // or unchooses every die showing f when all of them are chosen: the
  // number keys pick by face, as the terminal's do.
  function chooseFace(f) {
    if (!myTurn() || g.st.step !== 'keep') return;
    const faces = g.st.throw || [];
    const at = faces.map((x, i) => x === f ? i : -1).filter((i) => i >= 0);
    if (!at.length) { g.err = msg('web.noFace', { face: f, dice: faces.join(' ') }); draw(); return; }
    const free = at.find((i) => !g.sel.has(i));
    if (free !== undefined) g.sel.add(free); else for (const i of at) g.sel.delete(i);
    g.err = null;
    draw();
  }

  function keepThen(then) {
    const { faces, keep } = selection();
    if (!keep) return;
    g.pending = then;
    act('keep', faces);
  }

  function primary() { // T / throw
    if (!myTurn() || g.inflight) return;
    if (g.st.phase !== 'play') return act('roll-off');
    if (g.st.step === 'keep') return keepThen('throw');
    if (g.st.legal.some((l) => l.type === 'throw')) act('throw');
  }
  function bank() { // B / bank
    if (!myTurn() || g.inflight || g.st.phase !== 'play') return;
    if (g.st.step === 'keep') return keepThen('bank');
    if (g.st.legal.some((l) => l.type === 'bank')) act('bank');
  }

  const onKey = (e) => {
    if (e.target.closest && e.target.closest('input,select,textarea')) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key.toLowerCase();
    if (k >= '1' && k <= '6') { chooseFace(Number(k)); e.preventDefault(); }
    else if (k === 't' || k === 'r') { primary(); e.preventDefault(); }
    else if (k === 'b') { bank(); e.preventDefault(); }
    else if (k === 'h') { askHint(); e.preventDefault(); }
  };
  document.addEventListener('keydown', onKey);

  // askHint asks for the values of the choices on your turn, or the odds
  // of the throw ahead (watching, or out of turn).
  function askHint() {
    if (!g.st || g.st.phase !== 'play') return;
    if (myTurn() && (!g.table || !g.table.hints)) { g.hint = { unavailable: true }; draw(); return; }
    send({ type: 'hint' });
  }

  const take = () => takeSeat(g, id, draw);

  function scoreboard() {
    const st = g.st;
    return h('section', { class: 'card scoreboard', 'aria-label': msg('web.scores') },
      h('h2', {}, msg('score.title')),
      h('table', {}, h('tbody', {}, g.table.seats.map((s, i) => {
        const p = st ? st.players[i] : null;
        const turn = st && st.actor === i;
        const won = st && (st.winners || []).includes(i);
        // Why a bot plays below its level (a perfect bot as expert while its
        // table is prepared, or too large), in the page's language.
        const note = s.why ? msg('web.seat.expert', { why: msg(s.why.key, s.why.args || {}) }) : s.note || '';
        return h('tr', { class: [turn ? 'turn' : '', won ? 'won' : '', i === g.you.seat ? 'you' : ''].join(' ') },
          h('td', {}, h('div', { class: 'who' }, turn ? h('span', { class: 'dot', 'aria-label': msg('web.toPlay') }) : '', seatWho(s),
            s.bot ? h('span', { class: 'tag', title: note }, msg('tag.bot') + (note ? '*' : '')) : '', i === g.you.seat ? h('span', { class: 'tag you' }, msg('tag.you')) : '', won ? h('span', { class: 'tag win' }, msg('tag.winner')) : ''),
            s.bot && note ? h('div', { class: 'muted small seat-note' }, note) : ''),
          h('td', { class: 'num' }, p ? num(p.score) : '–'),
          h('td', { class: 'num muted small streak' }, p && p.streak ? msg('score.streak', { n: p.streak }) : ''));
      }))),
      st ? h('p', { class: 'muted small' }, msg('score.target', { n: num(g.table.rules.game.target) }) + (st.final_round ? msg('score.final') : '')) : '');
  }

  function rulesBox() {
    const r = g.table.rules, sc = r.scoring, t = r.turn;
    const items = [
      msg('web.rules.single', { one: sc.single['1'] || 0, five: sc.single['5'] || 0 }),
      msg('web.rules.triple', { ones: num(sc.triple[0]), others: sc.triple.slice(1).map(num).join(' / ') }),
      msg('web.rules.kind', { mode: msg(`web.kindMode.${sc.kind_mode}`) }) + (sc.kind_mode === 'fixed' ? ` (${num(sc.four_of_a_kind)} / ${num(sc.five_of_a_kind)} / ${num(sc.six_of_a_kind)})` : ''),
      sc.straight ? msg('web.rules.straight', { n: num(sc.straight) }) : msg('web.rules.noStraight'),
      sc.small_straight_low || sc.small_straight_high ? msg('web.rules.smallStraights', { low: num(sc.small_straight_low), high: num(sc.small_straight_high) }) : '',
      sc.three_pairs ? msg('web.rules.threePairs', { n: num(sc.three_pairs) }) : msg('web.rules.noThreePairs'),
      sc.four_kind_pair ? msg('web.rules.fourPair', { n: num(sc.four_kind_pair) }) : '',
      sc.two_triplets ? msg('web.rules.twoTriplets', { n: num(sc.two_triplets) }) : '',
      sc.six_dice_nothing ? msg('web.rules.sixNothing', { n: num(sc.six_dice_nothing) }) : '',
      msg(t.hot_dice ? 'web.rules.hotOn' : 'web.rules.hotOff'),
      t.entry_minimum ? msg('web.rules.entry', { n: num(t.entry_minimum) }) : msg('web.rules.noEntry'),
      t.bank_minimum ? msg('web.rules.bankMin', { n: num(t.bank_minimum) }) : '',
      t.farkle_penalty.count ? msg('web.rules.penalty', { count: t.farkle_penalty.count, points: num(t.farkle_penalty.points) }) : msg('web.rules.noPenalty'),
      msg(r.game.ending === 'immediate' ? 'web.rules.targetFirst' : 'web.rules.targetFinal', { n: num(r.game.target) }),
      msg('web.rules.first', { first: msg(`web.first.${r.game.first_player}`), tie: msg(`web.tie.${r.game.tie}`) }),
    ].filter(Boolean);
    return h('details', { class: 'card rules' }, h('summary', {}, msg('rules.title', { name: rulesName(r) })), h('ul', {}, items.map((x) => h('li', {}, x))),
      h('p', { class: 'muted small mono' }, msg('web.commitment'), ' ', h('span', { class: 'wrap' }, g.table.commitment)));
  }

  function logBox() {
    const list = h('ol', { class: 'log', 'aria-live': 'polite' }, g.log.slice(-80).map((l) => h('li', { class: `ev-${l.type}` }, l.text)));
    const box = h('section', { class: 'card logbox', 'aria-label': msg('log.title') }, h('h2', {}, msg('log.title')), list);
    requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
    return box;
  }

  // hintBox shows the choices best first, numbered, each with a button
  // that sends its action as the server gave it; or the odds.
  function hintBox() {
    if (!g.hint) return '';
    if (g.hint.unavailable) return h('div', { class: 'hint muted' }, msg('web.hint.unavailable'));
    if (g.hint.measure === 'odds') {
      const o = g.hint.odds;
      const who = names()[o.seat] || msg('web.odds.player');
      return h('div', { class: 'hint', id: 'odds' }, h('strong', {}, msg('web.odds.title')),
        h('p', {}, msg(o.turn ? 'web.odds.textLose' : 'web.odds.text', { name: who, n: o.dice, p: pct(o.p_farkle), turn: num(o.turn), points: num(Math.round(o.expected)) })));
    }
    const win = g.hint.measure === 'win';
    const unit = win ? (v) => msg('hint.toWin', { p: pct(v) }) : (v) => msg('hint.points1', { n: num(Math.round(v)) });
    const mine = myTurn();
    const two = g.st.players.filter((p) => !p.out).length === 2;
    let why;
    if (win) why = msg('hint.whyWin');
    else if (two) why = msg('hint.whyPointsTwo', { because: g.hint.note ? msg('hint.because', { why: msg('web.hint.notReady', { why: solverWhy(g.hint.note.replace(/^win chances are not available: /, '')) }) }) : '' });
    else why = msg(g.st.players.length > 2 ? 'hint.whyPointsMany' : 'hint.whyPoints');
    return h('div', { class: 'hint', id: 'hint-box', 'data-measure': g.hint.measure }, h('strong', {}, msg(win ? 'hint.win' : 'hint.points')),
      h('p', { class: 'muted small', id: 'hint-why' }, why),
      g.measureChanged ? h('p', { class: 'small switch', id: 'hint-switch' }, msg(win ? 'hint.nowWin' : 'hint.nowPoints')) : '',
      h('ol', { id: 'hint-choices' }, g.hint.choices.map((c) => h('li', { class: c.best ? 'best' : '' }, `${c.text}: ${unit(c.value)} `,
        mine ? h('button', { class: 'small ghost play-hint', onclick: () => send({ type: 'action', version: g.st.version, action: c.action }) }, msg('hint.play')) : ''))),
      g.table.local ? '' : h('a', { class: 'small', id: 'explore-link', href: explorerLink(id, g.st) }, msg('web.explorePosition')));
  }

  function stoppedArea() {
    const t = g.table;
    return h('section', { class: 'card stopped', id: 'stopped', role: 'status' },
      // A table a moderator closed (server/moderation.go) is an aborted
      // game, said in the page's language; other reasons are the server's.
      ...((closed) => closed
        ? [h('h2', {}, msg('web.end.aborted')), h('p', {}, msg('web.closedByModerator', { why: closed[1] }))]
        : [h('h2', {}, msg(t.status === 'expired' ? 'web.expired' : 'web.stopped')), h('p', {}, t.reason || '')])((t.reason || '').match(/^closed by a moderator: (.*)$/s)),
      g.st ? h('p', {}, h('a', { class: 'button', href: `/api/tables/${id}/record`, download: `farkle-${id}.json` }, msg('end.download'))) : '',
      h('p', {}, h('a', { class: 'button primary', href: '/lobby' }, msg('web.backLobby'))));
  }

  function playArea() {
    const st = g.st;
    if (g.table.status === 'failed' || g.table.status === 'expired') return stoppedArea();
    if (g.table.status === 'adjourned') return adjournedBox(id, g.you.seat >= 0);
    if (!st) return waitingBox(g, take);
    const mine = myTurn();
    const busy = g.inflight || !!g.pending; // an action sent and not yet answered
    const watching = g.you.seat < 0;
    const actorName = st.actor >= 0 ? names()[st.actor] : '';
    let status;
    if (st.phase === 'over') status = msg('status.over');
    else if (!g.online) status = msg(seatTurn() ? 'status.offlineMine' : 'status.offline');
    else if (st.phase !== 'play') status = mine ? msg('status.rollMine') : msg('status.roll', { name: actorName });
    else if (mine) status = msg(st.step === 'keep' ? 'status.keepMine' : 'status.mine');
    else status = msg(g.table.seats[st.actor] && g.table.seats[st.actor].bot ? 'status.thinking' : 'status.playing', { name: actorName });
    const { faces, keep } = st.step === 'keep' ? selection() : { faces: [], keep: null };
    const throwFaces = st.throw || [];
    const keptNow = st.step === 'choose' ? keptIndices(throwFaces, g.lastKeep) : new Set();
    const dead = g.dead;
    const deadBox = dead ? h('div', { class: `farkle${dead.leaving || throwFaces.length ? ' leaving' : ''}`, id: 'farkle', role: 'alert' },
      h('strong', { class: 'farkle-word' }, msg('farkle')),
      diceRow(dead.dice, throwFaces.length ? 'small dead' : 'mid dead'),
      h('span', { class: 'farkle-text' }, dead.text)) : '';
    const rolled = g.rolled; g.rolled = false;
    const dice = h('div', { class: `throw-area${rolled ? ' rolling' : ''}`, role: 'group', 'aria-label': msg('web.dice') },
      throwFaces.length === 0 ? (dead ? deadBox : h('span', { class: 'muted' }, st.phase === 'play' ? msg('dice.toThrow', { n: st.to_throw }) : '')) :
        throwFaces.map((f, i) => {
          const selectable = mine && st.step === 'keep';
          const kept = keptNow.has(i);
          return h('button', { class: `die-btn${g.sel.has(i) ? ' sel' : ''}${kept ? ' kept' : ''}${st.step === 'choose' && !kept ? ' left-out' : ''}`, disabled: !selectable, 'data-face': f, 'data-i': i,
            'aria-pressed': g.sel.has(i) ? 'true' : 'false', 'aria-label': msg(kept ? 'web.dieKept' : 'web.die', { n: i + 1, face: f }), title: selectable ? msg('web.dieKey', { face: f }) : false, onclick: () => toggle(i) }, dieSVG(f), h('kbd', {}, f));
        }));
    let selText = '';
    if (mine && st.step === 'keep') {
      selText = faces.length === 0 ? msg('sel.none') : keep ? msg('sel.points', { n: num(keep.points) }) : msg('sel.bad');
      if (keep && faces.length === st.throw.length && g.table.rules.turn.hot_dice) selText += msg('sel.hot', { n: g.table.rules.dice });
    }
    const total = st.total + (keep ? keep.points : 0);
    const left = st.step === 'keep' ? st.throw.length - faces.length : st.left;
    const throwN = left === 0 ? g.table.rules.dice : left;
    const canBankNow = (() => {
      if (st.step === 'choose') return st.legal.some((l) => l.type === 'bank');
      if (!keep) return false;
      const t = g.table.rules.turn;
      return total >= t.bank_minimum && (st.players[st.actor].score > 0 || total >= t.entry_minimum);
    })();
    const canThrowNow = st.step === 'keep' ? !!keep && (left > 0 || g.table.rules.turn.hot_dice) : st.legal.some((l) => l.type === 'throw');
    const oddsButton = h('button', { id: 'hint', class: 'big ghost', onclick: askHint }, msg(seatTurn() ? 'btn.hint' : 'btn.odds'), h('kbd', {}, 'H'));
    let buttons;
    if (st.phase === 'over') buttons = '';
    else if (watching) buttons = st.phase === 'play' ? h('div', { class: 'buttons' }, oddsButton) : '';
    else if (st.phase !== 'play') buttons = h('div', { class: 'buttons' }, h('button', { id: 'roll', class: 'primary big', disabled: !mine, onclick: primary }, msg('btn.roll'), h('kbd', {}, 'R')));
    else {
      buttons = h('div', { class: 'buttons' },
        h('button', { id: 'throw', class: 'primary big', disabled: !mine || busy || !canThrowNow, onclick: primary },
          msg(st.step === 'keep' ? 'btn.keepThrow' : 'btn.throw', { n: throwN }), ' ', h('kbd', {}, 'T')),
        h('button', { id: 'bank', class: 'big bank', disabled: !mine || busy || !canBankNow, onclick: bank },
          msg('btn.bank', { n: num(total) }), ' ', h('kbd', {}, 'B')),
        oddsButton);
    }
    return h('section', { class: `card play${mine ? ' mine' : ''}${g.hot ? ' hot-table' : ''}`, 'aria-label': msg('web.table') },
      clock.badge(),
      h('div', { class: 'status-line' }, h('h2', { id: 'status' }, status),
        st.phase === 'play' ? h('div', { class: 'turn-total' }, h('span', { class: 'muted small' }, msg('turn')), h('strong', { id: 'turn-total' }, num(total))) : ''),
      // The news of the last throw (a farkle's dead dice once the next
      // throw is on the table, hot dice) has a slot of its own, so the dice
      // and the buttons stay where they are.
      h('div', { class: 'table-news' }, throwFaces.length ? deadBox : '',
        g.hot && st.phase === 'play' ? h('div', { class: 'hot', id: 'hot', role: 'status' }, h('strong', {}, msg(g.hot.type === 'hot-dice' ? 'hot' : 'sixNothing')),
          h('span', {}, ` ${g.hot.text.replace(/^[^!:]*[!:] /, '')}`)) : ''),
      dice,
      h('p', { class: `selection${keep ? ' ok' : ''}`, id: 'selection', 'aria-live': 'polite' }, selText || (st.step === 'choose' && st.kept && st.kept.length ? [msg('sel.kept'), diceRow([].concat(st.kept || []))] : '\u00a0')),
      buttons,
      st.bank_why && mine ? h('p', { class: 'muted small' }, msg('web.cannotBank', { why: bankWhy(st) })) : '',
      g.err ? h('p', { class: 'error', role: 'alert' }, g.err) : '',
      hintBox());
  }

  // bankWhy says why the turn total cannot be banked yet, in the page's
  // language (the state's bank_why is the engine's English).
  function bankWhy(st) {
    const t = g.table.rules.turn;
    if (st.total < t.bank_minimum) return msg('web.bankBelowMin', { total: num(st.total), min: num(t.bank_minimum) });
    if (st.players[st.current] && st.players[st.current].score === 0 && st.total < t.entry_minimum) return msg('web.bankBelowEntry', { total: num(st.total), min: num(t.entry_minimum) });
    return st.step === 'keep' ? msg('web.keepFirst') : st.bank_why;
  }

  // leaveBox offers the seat's player a way out of the game: resign (a
  // loss), or abort while some seat has not yet finished a turn of its own
  // (rating.Aborted: unrated, a loss for no one). Either asks first. The
  // engine takes a resignation from the seat to act, so the button waits
  // for the player's turn.
  function leaveBox() {
    const st = g.st;
    if (g.table.local || g.table.status === 'adjourned' || g.you.seat < 0 || !st || st.phase === 'over' || st.players[g.you.seat].out) return '';
    const abort = st.players.some((p, k) => (k === g.you.seat && myTurn() ? p.turns - 1 : p.turns) < 1);
    const what = abort ? 'abort' : 'resign';
    if (!g.leaving) {
      return h('p', { class: 'leave' }, h('button', { id: 'leave', class: 'small ghost', type: 'button', disabled: !myTurn() || g.inflight,
        title: myTurn() ? false : msg('web.leave.onTurn'), onclick: () => { g.leaving = true; draw(); } }, msg(`web.leave.${what}`)),
      myTurn() ? '' : h('span', { class: 'muted small' }, ' ', msg('web.leave.onTurn')));
    }
    return h('div', { class: 'card leave-ask', id: 'leave-ask', role: 'alertdialog', 'aria-label': msg(`web.leave.${what}`) },
      h('p', {}, msg(`web.leave.${what}Ask`)),
      h('p', { class: 'row gap' },
        h('button', { id: 'leave-yes', class: 'danger', type: 'button', disabled: !myTurn(), onclick: () => { g.leaving = false; act('resign'); } }, msg(`web.leave.${what}Yes`)),
        h('button', { id: 'leave-no', type: 'button', onclick: () => { g.leaving = false; draw(); } }, msg('web.leave.stay'))));
  }

  const analysis = analysisView(id, () => draw());

  function endScreen() {
    const st = g.st;
    if (!st || st.phase !== 'over') return '';
    const w = (st.winners || []).map((i) => names()[i]);
    const youWon = (st.winners || []).includes(g.you.seat);
    const order = st.players.map((p, i) => [p, i]).sort((a, b) => b[0].score - a[0].score);
    const an = g.table.local ? '' : analysis();
    return h('section', { class: 'card end', id: 'end', 'aria-label': msg('status.over') },
      h('h2', {}, g.table.unrated === 'aborted' ? msg('web.end.aborted') : youWon ? msg('end.youWin') : msg(w.length > 1 ? 'end.share' : 'end.wins', { names: w.join(msg('end.and')) })),
      h('ol', { class: 'final' }, order.map(([p, i]) => h('li', {}, nameEl(names()[i]), h('strong', {}, num(p.score)),
        h('span', { class: 'muted small' }, [msg('web.end.turns', { n: p.turns }), msg('web.end.farkles', { n: p.farkles }), msg('web.end.best', { best: num(p.best_turn) })].join(' · ')),
        (g.table.seats[i] || {}).lost_on_time ? h('span', { class: 'lost-on-time small' }, msg('web.last.lostOnTime', { name: names()[i] })) : ''))),
      g.table.local ? '' : [ratingChange(g.table, g.you.seat), h('h3', {}, msg('end.decisions')), an],
      h('p', { class: 'muted small mono' }, msg('web.seed'), ' ', h('span', { class: 'wrap' }, g.table.seed || '')),
      h('p', { class: 'muted small' }, msg('web.seedCheck'), ' ', h('code', {}, 'farkle verify'), ' ', msg('web.seedVerify')),
      g.table.local ? opts.endExtras(g) : h('p', { class: 'row gap' },
        h('a', { class: 'button', id: 'download', href: `/api/tables/${id}/record`, download: `farkle-${id}.json` }, msg('end.download')),
        h('a', { class: 'button', href: `/replay/${id}` }, msg('end.replay')),
        h('a', { class: 'button', id: 'explore-rules', href: explorerLink(id) }, msg('web.exploreRules')),
        rematchBox(g, id, names, draw)),
      g.err ? h('p', { class: 'error', role: 'alert' }, g.err) : '');
  }

  function draw() {
    if (!g.table) return;
    const st = g.st;
    root.dataset.phase = st ? st.phase : 'waiting';
    root.dataset.step = st ? st.step || '' : '';
    root.dataset.mine = myTurn() ? 'yes' : 'no';
    root.dataset.version = st ? st.version : 0;
    root.dataset.online = g.online ? 'yes' : 'no';
    root.dataset.busy = g.inflight || g.pending ? 'yes' : 'no'; // an action sent, or one to follow it, not yet answered
    root.replaceChildren(
      h('div', { class: 'col main-col' }, endScreen(), st && st.phase === 'over' ? '' : playArea(), logBox(), leaveBox()),
      h('div', { class: 'col side-col' }, tournamentLink(g.table), scoreboard(), rulesBox(),
        g.table.local ? opts.side(g) : h('p', { class: 'muted small' }, g.you.seat >= 0 ? msg('seat.you', { n: g.you.seat + 1 }) : msg('seat.watching'), msg('seat.connected', { n: g.table.watchers }))));
  }

  (opts.connect || connectTable)(g, id, banner, onMessage, draw);
  return () => { g.closed = true; clock.stop(); document.removeEventListener('keydown', onKey); if (g.ws) g.ws.close(); };
}
