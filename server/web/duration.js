// duration.js: a span of time as the pages write it, in the page's
// language: the one function for clocks and times left. Seconds under two
// minutes, minutes under two hours, hours and minutes under two days, then
// days and hours. Each unit is counted whole from the total (the minutes
// rounded up first, so a day less a few seconds is "24 h", never
// "23 h 60 min").
import { msg, num } from './i18n.js';

export function duration(seconds) {
  const s = Math.ceil(Math.max(0, seconds));
  if (s < 120) return msg('web.dur.s', { n: num(s) });
  const m = Math.ceil(s / 60);
  if (m < 120) return msg('web.dur.min', { n: num(m) });
  if (m < 48 * 60) {
    const h = Math.floor(m / 60), rest = m % 60;
    return rest ? `${msg('web.dur.h', { n: num(h) })} ${msg('web.dur.min', { n: num(rest) })}` : msg('web.dur.h', { n: num(h) });
  }
  const hours = Math.round(s / 3600);
  const d = Math.floor(hours / 24), rest = hours % 24;
  return rest ? `${msg('web.dur.d', { n: num(d) })} ${msg('web.dur.h', { n: num(rest) })}` : msg('web.dur.d', { n: num(d) });
}
