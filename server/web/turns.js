// turns.js: the turn each step of a replay belongs to, so that a moment of
// a game is named as a player would name it ("Ann's turn 12"), never by
// the number of its action.
import { msg } from './i18n.js';

// turnLabels returns, for each step of the replay r (GET
// /api/tables/{id}/replay), the turn in which it was played: for the
// ordinary game "Ann's turn 12" (counted from the log's turn lines; the
// roll-off before the first turn is "the roll-off"), for Dragon Farkle
// "round 3, Ann's turn".
export function turnLabels(r) {
  const names = r.table.seats.map((s) => s.name);
  if (r.table.kind === 'dragon') {
    return r.steps.map((s, i) => {
      const st = i ? r.steps[i - 1].dragon : r.start;
      return st ? msg('web.turn.dragon', { round: st.round, name: names[st.turn] }) : '';
    });
  }
  const count = names.map(() => 0);
  let cur = msg('web.turn.rollOff');
  return r.steps.map((s) => {
    const label = cur;
    for (const l of s.log) {
      if (l.type === 'turn') { count[l.player]++; cur = msg('web.turn.player', { name: names[l.player], n: count[l.player] }); }
      if (l.type === 'tie') cur = msg('web.turn.tie');
    }
    return label;
  });
}
