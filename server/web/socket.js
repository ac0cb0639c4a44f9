// socket.js: the live WebSocket of a table page (ordinary or Dragon Farkle),
// reconnecting with exponential backoff when the connection drops.
import { chatPanel } from './chat.js';
import { msg, lang } from './i18n.js';
import { showNotices } from './ui.js';

// connectTable opens /ws/tables/{id} (in the page's language: the server
// writes the log lines and hints in it) and keeps it open until g.closed is set.
// It keeps its state on g: g.ws (the current socket), g.online (open now) and
// g.retry (failed attempts in a row, at most 6; the wait before the next is
// 250 ms × 2^retry). Each message is parsed as JSON and handed to onMessage.
// A node that stops says reconnect first: the banner says the server is
// restarting and the page connects again at once (behind a proxy another
// node answers; alone, it tries again until the node is back, saying so).
// When the connection drops, onLost is called (to redraw offline) and the
// banner says so until the socket opens again.
//
// The table's chat (chat.js) comes with the socket: its panel goes after
// the page's game, shown once the game is drawn, and chat messages go to
// it rather than to onMessage, as do the server's word that this player is
// muted or banned. A notice of the moderators (a new name) shows at the
// top of the page.
export function connectTable(g, id, banner, onMessage, onLost) {
  const chat = chatPanel(g, (m) => { if (g.ws && g.ws.readyState === 1) g.ws.send(JSON.stringify(m)); });
  chat.el.hidden = true; // until the game above it is drawn: it came first and the game pushed it down
  banner.parentElement.append(chat.el);
  const connect = () => {
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/tables/${id}?lang=${lang}`);
    g.ws = ws;
    ws.onopen = () => { g.retry = 0; g.restarting = false; banner.hidden = true; g.online = true; };
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      // The node is stopping (docs/API.md, reconnect): connect again at
      // once, and another node answers.
      if (m.type === 'reconnect') {
        g.moving = true;
        banner.hidden = false;
        banner.textContent = msg('web.restarting');
        return;
      }
      if (m.type === 'chat') { chat.add(m); return; }
      if (m.type === 'error' && (m.code === 'muted' || m.code === 'banned')) { chat.sanction(m); return; }
      if (m.type === 'notice') { showNotices(m.notices); return; }
      onMessage(m);
      if (m.table) { chat.el.hidden = false; chat.draw(); }
    };
    ws.onclose = () => {
      if (g.closed) return;
      if (g.moving) { g.moving = false; g.restarting = true; g.retry = 0; connect(); return; }
      g.online = false;
      onLost();
      banner.hidden = false;
      banner.textContent = msg(g.restarting ? 'web.restarting' : 'web.lost');
      g.retry = Math.min(g.retry + 1, 6);
      setTimeout(() => { if (!g.closed) connect(); }, 250 * 2 ** g.retry);
    };
  };
  connect();
  // Leaving the page closes the socket at once, so the server knows the
  // player has gone (the clock against bots stops, clock_bots.go) even
  // when the browser keeps the page for its back button; coming back to
  // such a page connects again.
  addEventListener('pagehide', () => { if (!g.closed && g.ws) { g.left = true; g.closed = true; g.ws.close(1000); } });
  addEventListener('pageshow', (e) => { if (e.persisted && g.left) { g.left = false; g.closed = false; g.retry = 0; connect(); } });
}
