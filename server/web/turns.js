// turns.js: the turn each step of a replay belongs to, so that a moment of
// a game is named as a player would name it ("Ann's turn 12"), never by
// the number of its action.

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
      return st ? `round ${st.round}, ${names[st.turn]}’s turn` : '';
    });
  }
  const count = names.map(() => 0);
  let cur = 'the roll-off';
  return r.steps.map((s) => {
    const label = cur;
    for (const l of s.log) {
      if (l.type === 'turn') { count[l.player]++; cur = `${names[l.player]}’s turn ${count[l.player]}`; }
      if (l.type === 'tie') cur = 'the roll-off for the win';
    }
    return label;
  });
}
