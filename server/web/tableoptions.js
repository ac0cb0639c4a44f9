// tableoptions.js: the new-table form's choices beyond the rules and the
// seats: the pace (live or at your own pace), whether house rules are
// rated, and an account invited by name to the first friend's seat.
import { h } from './ui.js';
import { paceField } from './pace.js';
import { msg } from './i18n.js';

// tableOptions returns the fields and the values they add to a table
// request.
export function tableOptions() {
  const pace = paceField();
  const rated = h('input', { type: 'checkbox', id: 'rated', name: 'rated' });
  const invite = h('input', { id: 'invite', name: 'invite', maxlength: '24', placeholder: msg('web.form.inviteName'), autocomplete: 'off' });
  const el = h('div', { class: 'table-options' }, pace.el,
    h('label', { class: 'field check', title: msg('web.form.ratedWhy') }, rated, msg('web.form.rated')),
    h('label', { class: 'field' }, msg('web.form.invite'), invite));
  // inviteAt returns where the invited player sits in list: the first
  // friend's seat, else the last bot's (so "you and a bot" becomes "you
  // and your friend", not a table of three), else a seat added at the end
  // (list.length); -1 when nobody is invited.
  const inviteAt = (list) => {
    if (!invite.value.trim()) return -1;
    const i = list.findIndex((s) => s.type === 'human');
    if (i >= 0) return i;
    const b = list.map((s) => s.type).lastIndexOf('bot');
    return b >= 0 ? b : list.length;
  };
  // seats returns the seats asked for, with the invited player's in place.
  const seats = (list) => {
    const at = inviteAt(list);
    if (at < 0) return list;
    const out = list.map((s) => ({ ...s }));
    out[at] = { type: 'invite', name: invite.value.trim() };
    return out;
  };
  // onInvite calls f whenever the name invited changes.
  const onInvite = (f) => invite.addEventListener('input', f);
  return { el, seats, inviteAt, onInvite, invited: () => invite.value.trim(), values: () => ({ pace: pace.value(), rated: rated.checked || undefined }) };
}
