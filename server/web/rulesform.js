// rulesform.js: the "create a table" page: a preset or custom rules with
// every option of a rule file (docs/RULES.md section 4), and the seats. The server validates the rules
// and names the field at fault; the form marks that field.
import { h, api, go, page, ensurePlayer, nameField, state } from './ui.js';
import { tableOptions } from './tableoptions.js';
import { msg, has, lang } from './i18n.js';
import { botLevel } from './words.js';

// FIELDS lists every rule option: [path, kind, choices], under a group
// title; the label of a field is its text web.field.PATH, of a group
// web.group.TITLE, of a choice web.choice.VALUE.
const FIELDS = [
  ['scoring', [
    ['scoring.single.1', 'int'], ['scoring.single.5', 'int'],
    ['scoring.triple.0', 'int'], ['scoring.triple.1', 'int'], ['scoring.triple.2', 'int'],
    ['scoring.triple.3', 'int'], ['scoring.triple.4', 'int'], ['scoring.triple.5', 'int'],
    ['scoring.kind_mode', 'choice', ['none', 'fixed', 'multiply', 'double']],
    ['scoring.four_of_a_kind', 'int'], ['scoring.five_of_a_kind', 'int'],
    ['scoring.six_of_a_kind', 'int'],
    ['scoring.straight', 'int'], ['scoring.small_straight_low', 'int'],
    ['scoring.small_straight_high', 'int'], ['scoring.three_pairs', 'int'],
    ['scoring.three_pairs_quad', 'bool'], ['scoring.four_kind_pair', 'int'],
    ['scoring.two_triplets', 'int'], ['scoring.six_dice_nothing', 'int'],
  ]],
  ['turn', [
    ['turn.hot_dice', 'bool'], ['turn.entry_minimum', 'int'], ['turn.bank_minimum', 'int'],
    ['turn.farkle_penalty.count', 'int'], ['turn.farkle_penalty.points', 'int'],
  ]],
  ['game', [
    ['game.target', 'int'], ['game.ending', 'choice', ['final-round', 'immediate']],
    ['game.min_players', 'int'], ['game.max_players', 'int'],
    ['game.first_player', 'choice', ['roll-off', 'seat-order']], ['game.tie', 'choice', ['roll-off', 'share']],
    ['game.next_first', 'choice', ['', 'winner']],
  ]],
];

function getPath(obj, path) {
  return path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);
}

function setPath(obj, path, v) {
  const ks = path.split('.');
  let o = obj;
  ks.slice(0, -1).forEach((k, i) => { o[k] ??= /^\d+$/.test(ks[i + 1]) ? [] : {}; o = o[k]; });
  o[ks.at(-1)] = v;
}

// fieldKey turns a server field ("scoring.triple[2]") into a form path.
function fieldKey(f) { return (f || '').replace(/\[(\d+)\]/g, '.$1').replace(/\["?([^"\]]+)"?\]/g, '.$1'); }

// botDescription is a bot level's line in the page's language (the
// server's English when there is no text for it).
export function botDescription(b) {
  return has(`web.bot.${b.name}`) ? msg(`web.bot.${b.name}`) : b.description;
}

export async function newTablePage() {
  const [presets, farkleBots] = await Promise.all([api('GET', '/api/presets'), api('GET', '/api/bots')]);
  const dragonBots = ['smart', 'simple', 'random'].map((name) => ({ name, description: msg(`web.dragonBot.${name}`) }));
  let bots = farkleBots;
  const presetSel = h('select', { id: 'preset', name: 'preset' }, presets.map((p) => h('option', { value: p.name, selected: p.name === 'classic' }, p.name)),
    h('option', { value: 'dragon' }, msg('web.form.dragon')));
  const isDragon = () => presetSel.value === 'dragon';
  const custom = h('input', { type: 'checkbox', id: 'custom' });
  const inputs = {};
  const groups = FIELDS.map(([title, fields]) => h('fieldset', { class: 'rules-group' }, h('legend', {}, msg(`web.group.${title}`)),
    fields.map(([path, kind, choices]) => {
      let input;
      if (kind === 'choice') input = h('select', { name: path }, choices.map((c) => h('option', { value: c }, msg(`web.choice.${c || 'default'}`))));
      else if (kind === 'bool') input = h('input', { type: 'checkbox', name: path });
      else input = h('input', { type: 'number', name: path, step: '50', inputmode: 'numeric' });
      if (path.endsWith('players') || path.includes('count')) input.step = '1';
      inputs[path] = input;
      return h('label', { class: kind === 'bool' ? 'field check' : kind === 'choice' ? 'field choice' : 'field', 'data-field': path }, msg(`web.field.${path}`), input);
    })));
  const ruleName = h('input', { name: 'name', maxlength: '40', placeholder: msg('web.form.houseRules') });
  const customBox = h('div', { class: 'rules-form', hidden: true }, h('label', { class: 'field' }, msg('web.form.rulesName'), ruleName), groups);
  const fill = () => {
    const dragon = isDragon();
    custom.closest('label').hidden = dragon;
    if (dragon) { custom.checked = false; customBox.hidden = true; }
    const want = dragon ? dragonBots : farkleBots;
    if (bots !== want) {
      bots = want;
      for (const s of seats) if (s.type === 'bot') s.level = dragon ? 'smart' : 'steady';
      while (dragon && seats.length > 5) seats.pop();
      drawSeats();
    }
    if (dragon) return;
    const p = presets.find((x) => x.name === presetSel.value);
    for (const [path, input] of Object.entries(inputs)) {
      let v = getPath(p.rules, path);
      if (path.startsWith('scoring.single.')) v = (p.rules.scoring.single || {})[path.split('.')[2]] || 0;
      if (input.type === 'checkbox') input.checked = !!v; else input.value = v ?? '';
    }
    ruleName.value = p.name === 'classic' ? msg('web.form.houseRules') : msg('web.form.house', { name: p.name });
  };
  presetSel.addEventListener('change', fill);
  custom.addEventListener('change', () => { customBox.hidden = !custom.checked; });

  const seats = [{ type: 'me' }, { type: 'bot', level: 'steady' }];
  const seatList = h('ol', { class: 'seats-edit', id: 'seat-list' });
  const extra = tableOptions();
  // The list shows every seat as the table will have it: the player
  // invited by name (below) in the seat they take.
  const drawSeats = () => {
    const at = extra.inviteAt(seats);
    const invitedLi = () => h('li', { class: 'row invited-seat' }, h('span', { class: 'grow' }, msg('web.form.invitedSeat', { name: extra.invited() })));
    seatList.replaceChildren(...seats.map((s, i) => i === at ? invitedLi() : h('li', { class: 'row' },
      s.type === 'me' ? h('span', { class: 'grow' }, msg('web.form.you')) :
      s.type === 'human' ? h('span', { class: 'grow' }, msg('web.form.friend')) :
      h('label', { class: 'grow' }, msg('web.form.bot'), ' ', h('select', { 'aria-label': msg('web.form.botLevel', { n: i + 1 }), onchange: (e) => { s.level = e.target.value; } },
        bots.map((b) => h('option', { value: b.name, selected: b.name === s.level, title: botDescription(b) }, botLevel(b.name))))),
      s.type === 'me' ? '' : h('button', { type: 'button', class: 'small', 'aria-label': msg('web.form.remove', { n: i + 1 }), onclick: () => { seats.splice(i, 1); drawSeats(); } }, '✕'))));
    if (at === seats.length) seatList.append(invitedLi());
  };
  extra.onInvite(drawSeats);
  drawSeats();
  const err = h('p', { class: 'error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary big', id: 'create' }, msg('web.form.create'));
  const form = h('form', { class: 'card', onsubmit: async (e) => {
    e.preventDefault();
    err.textContent = '';
    form.querySelectorAll('.bad').forEach((x) => x.classList.remove('bad'));
    let rules = presetSel.value;
    if (custom.checked && !isDragon()) {
      rules = { name: ruleName.value.trim() || msg('web.form.houseRules'), base: presetSel.value, dice: 6 };
      const single = {};
      for (const [path, input] of Object.entries(inputs)) {
        const v = input.type === 'checkbox' ? input.checked : input.tagName === 'SELECT' ? input.value : (input.value === '' ? NaN : Number(input.value));
        if (path.startsWith('scoring.single.')) single[path.split('.')[2]] = v; else setPath(rules, path, v);
      }
      rules.scoring.single = single;
      for (const [path, input] of Object.entries(inputs)) {
        if (input.type === 'number' && Number.isNaN(getPath(rules, path) ?? single[path.split('.')[2]])) {
          err.textContent = msg('web.form.needNumber', { field: msg(`web.field.${path}`) });
          input.closest('label').classList.add('bad');
          input.focus();
          return;
        }
      }
    }
    submit.disabled = true;
    try {
      await ensurePlayer(document.getElementById('new-name').value.trim());
      const t = await api('POST', '/api/tables', { rules, seats: extra.seats(seats), ...extra.values() });
      go(`/t/${t.id}`);
    } catch (ex) {
      const key = fieldKey(ex.field);
      err.textContent = key && has(`web.field.${key}`) && lang !== 'en' ? msg('web.form.badField', { field: msg(`web.field.${key}`), why: ex.serverText || ex.message }) : ex.message;
      const lab = key && (form.querySelector(`[data-field="${CSS.escape(key)}"]`) || form.querySelector(`[data-field^="${CSS.escape(key)}"]`));
      if (lab) { customBox.hidden = false; custom.checked = true; lab.classList.add('bad'); lab.querySelector('input,select').focus(); }
      submit.disabled = false;
    }
  } },
  h('h1', {}, msg('nav.new')),
  nameField('new-name'),
  h('label', { class: 'field' }, msg('setup.rules'), presetSel),
  h('label', { class: 'field check' }, custom, msg('web.form.custom')),
  customBox,
  extra.el,
  h('h2', {}, msg('web.form.seats')), seatList,
  h('p', { class: 'row gap' },
    h('button', { type: 'button', onclick: () => { if (seats.length < (isDragon() ? 5 : 8)) { seats.push({ type: 'human' }); drawSeats(); } } }, msg('web.form.addFriend')),
    h('button', { type: 'button', onclick: () => { if (seats.length < (isDragon() ? 5 : 8)) { seats.push({ type: 'bot', level: isDragon() ? 'smart' : 'steady' }); drawSeats(); } } }, msg('web.form.addBot'))),
  submit, err);
  page(form);
  fill();
  if (!state.me) document.getElementById('new-name').value = '';
}
