// report.js: "Report" on a chat line and on a player's page: a reason,
// sent to the site's moderators (POST /api/reports). The server caps the
// reports a player makes an hour and says so.
import { h, api, state } from './ui.js';
import { msg } from './i18n.js';

// reportControl returns a small "Report" button that opens a form for a
// reason; what is reported is target: {player} or {table, line}.
export function reportControl(target, label = msg('web.report.button')) {
  const box = h('span', { class: 'report' });
  const open = h('button', { type: 'button', class: 'small ghost report-open', title: msg('web.report.title') }, label);
  const reason = h('input', { class: 'report-reason', maxlength: '300', required: true, placeholder: msg('web.report.reason'), 'aria-label': msg('web.report.reason') });
  const status = h('span', { class: 'small report-status', role: 'status' });
  const form = h('form', { class: 'report-form', hidden: true, onsubmit: async (e) => {
    e.preventDefault();
    const text = reason.value.trim();
    if (!text) { reason.focus(); return; }
    try {
      await api('POST', '/api/reports', { ...target, reason: text });
      form.hidden = true; open.hidden = true;
      status.className = 'small muted report-status';
      status.textContent = msg('web.report.sent');
    } catch (ex) {
      status.className = 'small error report-status';
      status.textContent = ex.message;
    }
  } }, reason, h('button', { type: 'submit', class: 'small report-send' }, msg('web.report.send')),
  h('button', { type: 'button', class: 'small ghost', onclick: () => { form.hidden = true; open.hidden = false; } }, msg('web.report.cancel')));
  open.addEventListener('click', () => {
    if (!state.me) { status.className = 'small error report-status'; status.textContent = msg('err.no_player'); return; }
    open.hidden = true; form.hidden = false; reason.focus();
  });
  box.append(open, form, status);
  return box;
}
