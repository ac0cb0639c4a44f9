// explorelink.js: the link from a table's hint and end-of-game analysis to
// the strategy explorer (explore.js) at the table's rules and, during play,
// the position of the player to act against the strongest opponent, or the
// position where of a decision of the analysis.

export function explorerLink(id, st, where) {
  const q = new URLSearchParams({ table: id });
  if (where) {
    for (const k of ['me', 'them', 'turn', 'dice']) q.set(k, where[k]);
    if (where.throw) q.set('throw', where.throw.join(''));
  }
  if (st && st.phase === 'play' && st.players) {
    const scores = st.players.map((p) => p.score);
    const keep = st.step === 'keep';
    q.set('me', scores[st.actor]);
    q.set('them', Math.max(0, ...scores.filter((_, i) => i !== st.actor)));
    q.set('turn', st.total || 0);
    q.set('dice', keep ? (st.throw || []).length : st.to_throw);
    if (keep) q.set('throw', (st.throw || []).join(''));
  }
  return '/explore?' + q;
}
