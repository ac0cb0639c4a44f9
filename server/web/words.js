// words.js: the server's English words in the page's language. The API
// keeps its words English for every client (choices as the games name
// their actions, the advisor's notes, the bots' levels); a page shows them
// through these, and a word it does not know as the server wrote it.
import { msg, has, lang } from './i18n.js';

// choiceText is a choice (of the analysis, of the explorer) in the page's
// language. The
// server writes choices in English as its games name their actions: the
// ordinary game's "keep 1 5 then bank", "throw", "bank"; Dragon Farkle's
// "keep 1 5 (double)", "keep 1 (item)", "brawl Ana", "use pip on a 3",
// "discard pip", "stop", "roll", … (dragon.Action.String). A choice it
// does not know stays as the server wrote it.
export function choiceText(s) {
  s = s || '';
  let m = /^keep ([1-6](?: [1-6])*)(?: then (bank|throw))?$/.exec(s);
  if (m) return msg(m[2] ? `web.an.keepThen.${m[2]}` : 'web.an.keep', { dice: m[1] });
  if (s === 'throw' || s === 'bank') return msg(`web.an.${s}`);
  if ((m = /^keep ([1-6](?: [1-6])*) \((double|item)\)$/.exec(s))) return msg('dragon.act.keepReward', { dice: m[1], reward: msg(`dragon.act.reward.${m[2]}`) });
  if ((m = /^brawl (.+)$/.exec(s))) return msg('dragon.act.brawl', { p: m[1] });
  if ((m = /^use (\S+) on a ([1-6])$/.exec(s))) return msg('dragon.act.useOn', { card: cardName(m[1]), face: Number(m[2]) });
  if ((m = /^(use|discard|dismiss) (\S+)$/.exec(s))) return msg(`dragon.act.${m[1]}`, { card: cardName(m[2]) });
  if (/^[a-z]+$/.test(s) && has(`dragon.act.${s}`)) return msg(`dragon.act.${s}`);
  return s;
}

// cardName is a Dragon Farkle card's name by its ID, in the page's
// language (the ID when the catalogue has no name for it).
const cardName = (id) => has(`card.${id}.name`) ? msg(`card.${id}.name`) : id;

// noteText is a note of the advisor on a position (package advise's
// notes) in the page's language.
export function noteText(s) {
  const key = adviseNotes[s];
  return key ? msg(key) : s;
}

const adviseNotes = {
  'only a throw is allowed here': 'hint.note.onlyThrow',
  'farkle: the turn total is lost': 'hint.note.farkle',
  'more than two players: win probability against the strongest opponent only': 'hint.note.many',
};

// botLevel is the name of a bot's level in a menu or a list, in the page's
// language (the level itself when the catalogue has no word for it).
export function botLevel(level) {
  return has(`web.botLevel.${level}`) ? msg(`web.botLevel.${level}`) : level;
}

// botName is a bot's name at a table from its level, as the server names
// its bots (Steady bot), in the page's language.
export function botName(level) {
  return msg('web.botNamed', { level: level[0].toUpperCase() + level.slice(1) });
}

// tourEnd is a tournament's status and why it ended early, in the page's
// language: the server keeps the reason as it wrote it, in English
// ("cancelled: 2 entrants at the start, fewer than 3", "cancelled: not
// full within 1 day of its last entrant (2 of 8)").
export function tourEnd(status, reason) {
  let m = /^cancelled: (\d+) entrants at the start, fewer than (\d+)$/.exec(reason || '');
  if (m) return msg('web.tour.cancelledFew', { n: Number(m[1]), min: Number(m[2]) });
  if ((m = /^cancelled: not full within .+ of its last entrant \((\d+) of (\d+)\)$/.exec(reason || ''))) return msg('web.tour.cancelledNotFull', { n: Number(m[1]), size: Number(m[2]) });
  const word = msg(`web.tour.status.${status}`);
  return reason ? `${word}: ${reason}` : word;
}

// solverWhy is why the solver has no table for some rules (solved.Reason's
// words) in the page's language; an English page keeps the server's own
// words, the most precise.
export function solverWhy(s) {
  if (lang === 'en' || !s) return s;
  const key = solverWhys[s.replace(/: ask again in a while$/, '')];
  if (key) return msg(key);
  const m = /^its table would need (\S+ \S+), more than the .+ of (\S+ \S+)$/.exec(s);
  return m ? msg('web.why.need', { need: m[1], limit: m[2] }) : s;
}

const solverWhys = {
  'its table is being prepared': 'web.why.preparing',
  'the solver is busy': 'web.why.busy',
  'its table is too large for the solver': 'web.why.tooLarge',
  'the solver cannot solve these rules': 'web.why.rules',
  'the solver failed on these rules': 'web.why.failed',
  'the solver is shutting down': 'web.why.shutdown',
  'its table is not available': 'web.why.unavailable',
};
