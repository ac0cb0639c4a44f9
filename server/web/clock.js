// clock.js: the turn clock of a table page (ordinary or Dragon Farkle): a
// countdown for the seat to act, "the server plays the turn" once its time
// ran out, redrawn four times a second.
import { h } from './ui.js';
import { msg } from './i18n.js';
import { duration } from './duration.js';

// tableClock keeps the clock of g.table (g.you.seat is the page's seat;
// names() the seats' names; over() whether the game has ended). Call seen
// with each message's type once g.table is updated, put badge() where the
// clock shows, and stop() when the page goes.
export function tableClock(g, names, over) {
  let end = null, deadline = null;

  // seen notes when the running clock ends, in this page's own time: a
  // clock that an update just started has its whole time left (whatever
  // this computer's clock says); one seen on connecting has what its
  // deadline says.
  function seen(type) {
    const c = g.table && g.table.clock;
    if (!c || !c.deadline) { end = null; deadline = null; return; }
    if (c.deadline === deadline) return;
    deadline = c.deadline;
    const left = type === 'update' ? c.seconds : Math.min(c.seconds, Math.max(0, (Date.parse(c.deadline) - Date.now()) / 1000));
    end = performance.now() + left * 1000;
  }

  function badge() {
    const c = g.table && g.table.clock;
    if (!c || c.seat === undefined || c.seat === null || over()) return '';
    const you = c.seat === g.you.seat;
    if (c.auto) return h('div', { class: 'clock auto', id: 'clock', role: 'status' }, you ? msg('web.clock.yoursOut') : msg('web.clock.out', { name: names()[c.seat] }));
    const left = Math.max(0, ((end || 0) - performance.now()) / 1000);
    const warn = left <= Math.min(10, c.seconds / 3);
    return h('div', { class: `clock${warn ? ' warn' : ''}`, id: 'clock', role: 'timer', 'aria-label': msg(you ? 'web.clock.youLeft' : 'web.clock.left', { name: names()[c.seat], n: Math.ceil(left) }) },
      h('span', { class: 'clock-time', id: 'clock-time' }, duration(left)),
      h('span', { class: 'small' }, ' ', you ? msg('web.clock.toAct') : msg('web.clock.for', { name: names()[c.seat] })),
      c.timeouts ? h('span', { class: 'small' }, ' · ', msg('web.clock.timeouts', { n: c.timeouts })) : '');
  }

  const tick = setInterval(() => {
    const el = document.getElementById('clock');
    if (el && end !== null) el.replaceWith(badge() || h('span'));
  }, 250);

  return { seen, badge, stop: () => clearInterval(tick) };
}
