// rematch.js: the rematch at the end of a game, the same for every kind:
// a player asks (POST /api/tables/{id}/rematch), the others at the table
// are told (a "rematch" message, or table.rematch on a later visit) and
// accept by taking the seat kept for them; watchers may follow.
import { h, api, go } from './ui.js';
import { msg } from './i18n.js';

// rematchBox returns the rematch's buttons for the page's state g at
// table id (g.table, g.you.seat, g.err), names() the seats' names.
export function rematchBox(g, id, names, redraw) {
  const rm = g.table.rematch;
  if (g.you.seat < 0) return rm ? h('a', { class: 'button', id: 'watch-rematch', href: `/t/${rm.table}` }, msg('rematch.watch')) : '';
  const fail = (e, ex) => { e.target.disabled = false; g.err = ex.message; redraw(); };
  const accept = async (table) => {
    await api('POST', `/api/tables/${table}/join`);
    go(`/t/${table}`);
  };
  const why = (r) => r && r.winner_first ? h('span', { class: 'muted small' }, msg('rematch.winner')) : '';
  // Against bots alone the rematch is a new game against the same bots,
  // and says so.
  const others = g.table.seats.filter((s, i) => i !== g.you.seat);
  const vsBots = others.length > 0 && others.every((s) => s.bot);
  const again = vsBots ? (others.length === 1 ? msg('web.newVsBot', { name: others[0].name }) : msg('web.newVsBots')) : msg('rematch');
  if (!rm) {
    return h('button', { class: 'primary', id: 'rematch', title: msg('web.rematchWhy'), onclick: async (e) => {
      e.target.disabled = true;
      try {
        const r = await api('POST', `/api/tables/${id}/rematch`);
        if (r.by === g.you.seat) go(`/t/${r.table}`); else await accept(r.table); // another asked first: accept theirs
      } catch (ex) { fail(e, ex); }
    } }, again);
  }
  if (rm.by === g.you.seat) return h('span', { class: 'rematch' }, h('a', { class: 'button primary', id: 'rematch-go', href: `/t/${rm.table}` }, vsBots ? again : msg('rematch.go')), why(rm));
  return h('span', { class: 'rematch offer', role: 'status' }, h('strong', {}, msg('rematch.asks', { name: names()[rm.by] })),
    h('button', { class: 'primary', id: 'accept', onclick: async (e) => {
      e.target.disabled = true;
      try { await accept(rm.table); } catch (ex) { fail(e, ex); }
    } }, msg('rematch.accept')), why(rm));
}
