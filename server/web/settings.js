// settings.js: the settings page (/settings), kept in this browser: sound
// and vibration (feel.js), how fast the page animates (motion.js) and a
// notification when a move waits in a game at your own pace (notify.js).
import { h, page } from './ui.js';
import { msg } from './i18n.js';
import { feelSettings } from './feel.js';
import { speeds, animSetting, setAnim } from './motion.js';
import { notifySupported, notifyOn, setNotify } from './notify.js';

export function settingsPage() {
  const anim = h('select', { id: 'anim-speed', onchange: (e) => setAnim(e.target.value) },
    speeds.map((v) => h('option', { value: v, selected: v === animSetting() }, msg(`web.set.anim.${v}`))));
  const said = h('p', { class: 'muted small', id: 'notify-said', role: 'status' });
  const notify = h('input', { type: 'checkbox', id: 'notify-moves', checked: notifyOn(), disabled: !notifySupported(), onchange: async (e) => {
    const on = await setNotify(e.target.checked);
    e.target.checked = on;
    said.textContent = msg(on ? 'web.set.notifyOn' : Notification.permission === 'denied' ? 'web.set.notifyDenied' : 'web.set.notifyOff');
  } });
  page(h('h1', {}, msg('web.set.title')),
    h('section', { class: 'card' }, h('h2', {}, msg('web.feel.title')), feelSettings()),
    h('section', { class: 'card' }, h('h2', {}, msg('web.set.animH')),
      h('label', { class: 'field' }, msg('web.set.anim'), anim),
      h('p', { class: 'muted small' }, msg('web.set.animP'))),
    h('section', { class: 'card' }, h('h2', {}, msg('web.set.notifyH')),
      h('label', { class: 'field check' }, notify, msg('web.set.notify')),
      h('p', { class: 'muted small' }, msg(notifySupported() ? 'web.set.notifyP' : 'web.set.notifyNone')), said));
}
