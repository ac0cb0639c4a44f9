// tableoptions.js: the new-table form's choices beyond the rules and the
// seats: the pace (live or at your own pace) and whether house rules are
// rated.
import { h } from './app.js';
import { paceField } from './pace.js';

// tableOptions returns the fields and the values they add to a table
// request.
export function tableOptions() {
  const pace = paceField();
  const rated = h('input', { type: 'checkbox', id: 'rated', name: 'rated' });
  const el = h('div', { class: 'table-options' }, pace.el,
    h('label', { class: 'field check', title: 'Presets and Dragon Farkle are always rated' }, rated, 'Rated, even with house rules'));
  return { el, values: () => ({ pace: pace.value(), rated: rated.checked || undefined }) };
}
