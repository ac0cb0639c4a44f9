// rulesform.js: the "create a table" page: a preset or custom rules with
// every option of a rule file (docs/RULES.md section 4), and the seats. The server validates the rules
// and names the field at fault; the form marks that field.
import { h, api, go, page, ensurePlayer, nameField, state } from './app.js';

// FIELDS lists every rule option: [path, label, kind, choices].
const FIELDS = [
  ['Scoring', [
    ['scoring.single.1', 'Single 1', 'int'], ['scoring.single.5', 'Single 5', 'int'],
    ['scoring.triple.0', 'Three 1s', 'int'], ['scoring.triple.1', 'Three 2s', 'int'], ['scoring.triple.2', 'Three 3s', 'int'],
    ['scoring.triple.3', 'Three 4s', 'int'], ['scoring.triple.4', 'Three 5s', 'int'], ['scoring.triple.5', 'Three 6s', 'int'],
    ['scoring.kind_mode', '4, 5, 6 of a kind', 'choice', ['none', 'fixed', 'multiply', 'double']],
    ['scoring.four_of_a_kind', 'Four of a kind (fixed)', 'int'], ['scoring.five_of_a_kind', 'Five of a kind (fixed)', 'int'],
    ['scoring.six_of_a_kind', 'Six of a kind (fixed)', 'int'],
    ['scoring.straight', 'Straight 1–6', 'int'], ['scoring.small_straight_low', 'Small straight 1–5', 'int'],
    ['scoring.small_straight_high', 'Small straight 2–6', 'int'], ['scoring.three_pairs', 'Three pairs', 'int'],
    ['scoring.three_pairs_quad', 'Four of a kind counts as two pairs', 'bool'], ['scoring.four_kind_pair', 'Four of a kind + a pair', 'int'],
    ['scoring.two_triplets', 'Two triplets', 'int'], ['scoring.six_dice_nothing', 'Six dice, nothing: bonus', 'int'],
  ]],
  ['Turn', [
    ['turn.hot_dice', 'Hot dice', 'bool'], ['turn.entry_minimum', 'Entry minimum', 'int'], ['turn.bank_minimum', 'Bank minimum', 'int'],
    ['turn.farkle_penalty.count', 'Farkles in a row for a penalty (0: none)', 'int'], ['turn.farkle_penalty.points', 'Penalty points', 'int'],
  ]],
  ['Game', [
    ['game.target', 'Target', 'int'], ['game.ending', 'Ending', 'choice', ['final-round', 'immediate']],
    ['game.min_players', 'Min players', 'int'], ['game.max_players', 'Max players', 'int'],
    ['game.first_player', 'First player', 'choice', ['roll-off', 'seat-order']], ['game.tie', 'Ties', 'choice', ['roll-off', 'share']],
    ['game.next_first', 'Next game at the table starts with', 'choice', ['', 'winner']],
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

export async function newTablePage() {
  const [presets, farkleBots] = await Promise.all([api('GET', '/api/presets'), api('GET', '/api/bots')]);
  const dragonBots = [{ name: 'smart', description: 'recruits by the odds, brawls and attacks when it pays' }, { name: 'simple', description: 'rule of thumb' }, { name: 'random', description: 'any legal move' }];
  let bots = farkleBots;
  const presetSel = h('select', { id: 'preset', name: 'preset' }, presets.map((p) => h('option', { value: p.name, selected: p.name === 'classic' }, p.name)),
    h('option', { value: 'dragon' }, 'Dragon Farkle (2–5 players)'));
  const isDragon = () => presetSel.value === 'dragon';
  const custom = h('input', { type: 'checkbox', id: 'custom' });
  const inputs = {};
  const groups = FIELDS.map(([title, fields]) => h('fieldset', { class: 'rules-group' }, h('legend', {}, title),
    fields.map(([path, label, kind, choices]) => {
      let input;
      if (kind === 'choice') input = h('select', { name: path }, choices.map((c) => h('option', { value: c }, c || 'the first player rule')));
      else if (kind === 'bool') input = h('input', { type: 'checkbox', name: path });
      else input = h('input', { type: 'number', name: path, step: '50', inputmode: 'numeric' });
      if (path.endsWith('players') || path.includes('count')) input.step = '1';
      inputs[path] = input;
      return h('label', { class: kind === 'bool' ? 'field check' : 'field', 'data-field': path }, label, input);
    })));
  const ruleName = h('input', { name: 'name', maxlength: '40', placeholder: 'House rules' });
  const customBox = h('div', { class: 'rules-form', hidden: true }, h('label', { class: 'field' }, 'Name of these rules', ruleName), groups);
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
    ruleName.value = p.name === 'classic' ? 'House rules' : `${p.name} (house)`;
  };
  presetSel.addEventListener('change', fill);
  custom.addEventListener('change', () => { customBox.hidden = !custom.checked; });

  const seats = [{ type: 'me' }, { type: 'bot', level: 'steady' }];
  const seatList = h('ol', { class: 'seats-edit' });
  const drawSeats = () => {
    seatList.replaceChildren(...seats.map((s, i) => h('li', { class: 'row' },
      s.type === 'me' ? h('span', { class: 'grow' }, 'You') :
      s.type === 'human' ? h('span', { class: 'grow' }, 'A friend (joins by link)') :
      h('label', { class: 'grow' }, 'Bot ', h('select', { 'aria-label': `bot level of seat ${i + 1}`, onchange: (e) => { s.level = e.target.value; } },
        bots.map((b) => h('option', { value: b.name, selected: b.name === s.level, title: b.description }, b.name)))),
      s.type === 'me' ? '' : h('button', { type: 'button', class: 'small', 'aria-label': `remove seat ${i + 1}`, onclick: () => { seats.splice(i, 1); drawSeats(); } }, '✕'))));
  };
  drawSeats();
  const err = h('p', { class: 'error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary big', id: 'create' }, 'Create the table');
  const form = h('form', { class: 'card', onsubmit: async (e) => {
    e.preventDefault();
    err.textContent = '';
    form.querySelectorAll('.bad').forEach((x) => x.classList.remove('bad'));
    let rules = presetSel.value;
    if (custom.checked && !isDragon()) {
      rules = { name: ruleName.value.trim() || 'House rules', base: presetSel.value, dice: 6 };
      const single = {};
      for (const [path, input] of Object.entries(inputs)) {
        const v = input.type === 'checkbox' ? input.checked : input.tagName === 'SELECT' ? input.value : (input.value === '' ? NaN : Number(input.value));
        if (path.startsWith('scoring.single.')) single[path.split('.')[2]] = v; else setPath(rules, path, v);
      }
      rules.scoring.single = single;
      for (const [path, input] of Object.entries(inputs)) {
        if (input.type === 'number' && Number.isNaN(getPath(rules, path) ?? single[path.split('.')[2]])) {
          err.textContent = `${path}: a number is needed`;
          input.closest('label').classList.add('bad');
          input.focus();
          return;
        }
      }
    }
    submit.disabled = true;
    try {
      await ensurePlayer(document.getElementById('new-name').value.trim());
      const t = await api('POST', '/api/tables', { rules, seats });
      go(`/t/${t.id}`);
    } catch (ex) {
      err.textContent = ex.message;
      const key = fieldKey(ex.field);
      const lab = key && (form.querySelector(`[data-field="${CSS.escape(key)}"]`) || form.querySelector(`[data-field^="${CSS.escape(key)}"]`));
      if (lab) { customBox.hidden = false; custom.checked = true; lab.classList.add('bad'); lab.querySelector('input,select').focus(); }
      submit.disabled = false;
    }
  } },
  h('h1', {}, 'New table'),
  nameField('new-name'),
  h('label', { class: 'field' }, 'Rules', presetSel),
  h('label', { class: 'field check' }, custom, 'Change the rules (house rules)'),
  customBox,
  h('h2', {}, 'Seats'), seatList,
  h('p', { class: 'row gap' },
    h('button', { type: 'button', onclick: () => { if (seats.length < (isDragon() ? 5 : 8)) { seats.push({ type: 'human' }); drawSeats(); } } }, '+ Friend'),
    h('button', { type: 'button', onclick: () => { if (seats.length < (isDragon() ? 5 : 8)) { seats.push({ type: 'bot', level: isDragon() ? 'smart' : 'steady' }); drawSeats(); } } }, '+ Bot')),
  submit, err);
  page(form);
  fill();
  if (!state.me) document.getElementById('new-name').value = '';
}
