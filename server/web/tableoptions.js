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
  // seats returns the seats asked for, the first friend's seat kept for
  // the player invited, if any (a friend's seat is added for them).
  const seats = (list) => {
    const name = invite.value.trim();
    if (!name) return list;
    const out = list.map((s) => ({ ...s }));
    const i = out.findIndex((s) => s.type === 'human');
    if (i >= 0) out[i] = { type: 'invite', name }; else out.push({ type: 'invite', name });
    return out;
  };
  return { el, seats, values: () => ({ pace: pace.value(), rated: rated.checked || undefined }) };
}
