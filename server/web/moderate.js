// moderate.js: the moderators' page (/moderate). The open reports, each
// with what a moderator may do about it (hide the line, mute, ban, rename,
// close the table, dismiss); an action on any player, address range, table
// or chat line; the sanctions in force, to lift; and the audit log of every
// moderator's action, a page at a time. Every action asks for a reason,
// which the audit log keeps. The API answers moderators only (403): anyone
// else reads that the page is not theirs.
import { h, api, drawer, playerHref, nameEl } from './ui.js';
import { msg, date } from './i18n.js';

// The lengths a mute or ban may be given, in minutes (0: until lifted).
const lengths = { mute: [10, 60, 1440, 10080], ban: [1440, 10080, 43200, 0] };

function lengthText(m) {
  if (m === 0) return msg('web.mod.untilLifted');
  if (m % 1440 === 0) return msg('web.mod.days', { n: m / 1440 });
  if (m % 60 === 0) return msg('web.mod.hours', { n: m / 60 });
  return msg('web.mod.minutes', { n: m });
}

// actionForm returns the form of one action: its own fields (minutes, a
// name), a reason, and a button; base() gives its target when it is sent;
// done is called after the server took it.
function actionForm(action, base, done) {
  const reason = h('input', { name: 'reason', class: 'mod-reason', maxlength: '300', required: true, placeholder: msg('web.mod.reason'), 'aria-label': msg('web.mod.reason') });
  const fields = [];
  let minutes = null, name = null;
  if (action === 'mute' || action === 'ban') {
    minutes = h('select', { name: 'minutes', 'aria-label': msg('web.mod.length') }, lengths[action].map((m) => h('option', { value: String(m) }, lengthText(m))));
    fields.push(minutes);
  }
  if (action === 'rename') {
    name = h('input', { name: 'name', maxlength: '24', required: true, placeholder: msg('web.mod.newName'), 'aria-label': msg('web.mod.newName') });
    fields.push(name);
  }
  const err = h('p', { class: 'error small', role: 'alert', hidden: true });
  const form = h('form', { class: 'mod-form', 'data-action': action, onsubmit: async (e) => {
    e.preventDefault();
    const body = { ...base(), action, reason: reason.value.trim() };
    if (minutes) body.minutes = Number(minutes.value);
    if (name) body.name = name.value.trim();
    try {
      await api('POST', '/api/moderation/actions', body);
      done();
    } catch (ex) {
      err.hidden = false;
      err.textContent = ex.message;
    }
  } }, ...fields, reason, h('button', { type: 'submit', class: 'small' }, msg(`web.mod.do.${action}`)), err);
  return form;
}

// actions returns the buttons of the actions of list; a button opens its
// form below them (one at a time), aimed at targetOf(action).
function actions(list, targetOf, done) {
  const slot = h('div', { class: 'mod-slot' });
  const buttons = list.map((a) => h('button', { type: 'button', class: 'small ghost', 'data-open': a, onclick: () => {
    slot.replaceChildren(actionForm(a, () => targetOf(a), done));
    slot.querySelector('input, select').focus();
  } }, msg(`web.mod.act.${a}`)));
  return h('div', { class: 'mod-actions' }, h('div', { class: 'row gap wrap' }, buttons), slot);
}

function reportEl(r, refresh) {
  const base = { report: r.id };
  const list = [];
  if (r.line) list.push('hide');
  list.push('mute', 'ban', 'rename');
  if (r.table) list.push('close');
  list.push('dismiss');
  const target = (a) => ({ ...base, ...(a === 'hide' ? { table: r.table, line: r.line } : a === 'close' ? { table: r.table } : a === 'dismiss' ? {} : { player: r.player }) });
  return h('li', { class: 'card mod-report', 'data-report': String(r.id) },
    h('p', {}, h('a', { href: playerHref(r.player) }, nameEl(r.name)), ' ', h('span', { class: 'muted small' }, date(r.at))),
    r.line ? h('blockquote', { class: 'mod-line' }, r.text) : '',
    h('p', { class: 'small' }, msg('web.mod.reason'), ': ', r.reason),
    r.table ? h('p', { class: 'small muted' }, h('a', { href: `/t/${r.table}` }, msg('web.mod.table', { id: r.table })), r.line ? msg('web.mod.lineNo', { n: r.line }) : '') : '',
    actions(list, target, refresh));
}

function sanctionEl(x, refresh) {
  const who = x.range ? h('code', {}, x.range) : h('a', { href: playerHref(x.player) }, nameEl(x.name || x.player));
  return h('li', { class: 'card mod-sanction', 'data-sanction': String(x.id) },
    h('p', {}, h('strong', {}, msg(`web.mod.kind.${x.kind}`)), ' ', who, ' ',
      h('span', { class: 'muted small' }, x.until ? msg('web.mod.until', { until: date(x.until) }) : msg('web.mod.untilLifted'))),
    h('p', { class: 'small' }, x.reason),
    actions(['lift'], () => ({ sanction: x.id }), refresh));
}

// detailText is an audit entry's detail in the page's language: the
// server writes the end of a sanction as "until lifted" or "until TIME",
// and a report closed with an action as "answered by ACTION"; other
// details (names) stand as written.
function detailText(d) {
  if (d === 'until lifted') return msg('web.mod.untilLifted');
  const m = d.match(/^until (\d{4}-\d\d-\d\dT[\d:]+Z)$/);
  if (m) return msg('web.mod.until', { until: date(m[1]) });
  const a = d.match(/^answered by (hide|mute|ban|rename|close|lift)$/);
  return a ? msg('web.mod.answeredBy', { action: msg(`web.mod.act.${a[1]}`) }) : d;
}

function auditEl(e) {
  return h('li', { 'data-audit': String(e.id), 'data-action': e.action },
    h('span', { class: 'muted small' }, date(e.at)), ' ', h('strong', {}, e.name || e.moderator), ' ',
    msg(`web.mod.log.${e.action}`), ' ', e.target_name ? [h('a', { href: playerHref(e.target) }, nameEl(e.target_name)), ' '] : '', h('code', {}, e.target), e.detail ? h('span', { class: 'small' }, ' (', detailText(e.detail), ')') : '',
    h('span', { class: 'small' }, ' — ', e.reason));
}

// moderatePage shows /moderate.
export async function moderatePage() {
  const draw = drawer();
  let reports, sanctions, audit;
  try {
    [reports, sanctions, audit] = await Promise.all([api('GET', '/api/moderation/reports'), api('GET', '/api/moderation/sanctions'), api('GET', '/api/moderation/audit')]);
  } catch (ex) {
    if (ex.status !== 403) throw ex;
    draw(h('h1', {}, msg('web.mod.title')), h('p', { id: 'not-moderator' }, msg('web.mod.notYours')));
    return;
  }
  const refresh = () => moderatePage();
  const log = h('ol', { class: 'mod-audit', id: 'mod-audit' }, audit.entries.map(auditEl));
  const older = h('button', { type: 'button', class: 'small', id: 'audit-older', hidden: !audit.next, onclick: async () => {
    const more = await api('GET', `/api/moderation/audit?before=${older.dataset.next}`);
    log.append(...more.entries.map(auditEl));
    older.dataset.next = String(more.next);
    older.hidden = !more.next;
  } }, msg('web.mod.older'));
  older.dataset.next = String(audit.next);

  // An action on any target: a player's ID (from its page's address), an
  // address range, a table, or a table's chat line.
  const kinds = ['mute', 'ban', 'banRange', 'rename', 'hide', 'close'];
  const targetFields = { mute: ['player'], ban: ['player'], banRange: ['range'], rename: ['player'], hide: ['table', 'line'], close: ['table'] };
  const pick = h('select', { id: 'mod-any-action', 'aria-label': msg('web.mod.action') }, kinds.map((k) => h('option', { value: k }, msg(`web.mod.act.${k}`))));
  const inputs = Object.fromEntries(['player', 'range', 'table', 'line'].map((f) => [f, h('input', { name: f, id: `mod-any-${f}`, maxlength: '64', placeholder: msg(`web.mod.field.${f}`), 'aria-label': msg(`web.mod.field.${f}`) })]));
  const anySlot = h('div', { class: 'mod-slot' });
  const drawAny = () => {
    const k = pick.value;
    const fields = targetFields[k];
    for (const [f, el] of Object.entries(inputs)) el.hidden = !fields.includes(f);
    // The target is read when the form is sent: its inputs stand above it.
    const base = () => Object.fromEntries(fields.map((f) => [f, f === 'line' ? Number(inputs[f].value) : inputs[f].value.trim()]));
    anySlot.replaceChildren(actionForm(k === 'banRange' ? 'ban' : k, base, refresh));
  };
  pick.addEventListener('change', drawAny);
  drawAny();

  draw(h('h1', {}, msg('web.mod.title')),
    h('section', { class: 'mod-section', id: 'mod-reports' }, h('h2', {}, msg('web.mod.reports')),
      reports.reports.length ? h('ol', { class: 'mod-list' }, reports.reports.map((r) => reportEl(r, refresh))) : h('p', { class: 'muted' }, msg('web.mod.noReports'))),
    h('section', { class: 'mod-section card', id: 'mod-any' }, h('h2', {}, msg('web.mod.any')), h('p', { class: 'muted small' }, msg('web.mod.anyHelp')),
      h('div', { class: 'row gap wrap' }, pick, ...Object.values(inputs)), anySlot),
    h('section', { class: 'mod-section', id: 'mod-sanctions' }, h('h2', {}, msg('web.mod.sanctions')),
      sanctions.sanctions.length ? h('ol', { class: 'mod-list' }, sanctions.sanctions.map((x) => sanctionEl(x, refresh))) : h('p', { class: 'muted' }, msg('web.mod.noSanctions'))),
    h('section', { class: 'mod-section', id: 'mod-log' }, h('h2', {}, msg('web.mod.audit')),
      audit.entries.length ? log : h('p', { class: 'muted' }, msg('web.mod.noAudit')), older));
}
