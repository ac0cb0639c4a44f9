// socket.js: the live WebSocket of a table page (ordinary or Dragon Farkle),
// reconnecting with exponential backoff when the connection drops.

// connectTable opens /ws/tables/{id} and keeps it open until g.closed is set.
// It keeps its state on g: g.ws (the current socket), g.online (open now) and
// g.retry (failed attempts in a row, at most 6; the wait before the next is
// 250 ms × 2^retry). Each message is parsed as JSON and handed to onMessage.
// When the connection drops, onLost is called (to redraw offline) and the
// banner says so until the socket opens again.
export function connectTable(g, id, banner, onMessage, onLost) {
  const connect = () => {
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/tables/${id}`);
    g.ws = ws;
    ws.onopen = () => { g.retry = 0; banner.hidden = true; g.online = true; };
    ws.onmessage = (e) => onMessage(JSON.parse(e.data));
    ws.onclose = () => {
      if (g.closed) return;
      g.online = false;
      onLost();
      banner.hidden = false;
      banner.textContent = 'Connection lost — reconnecting…';
      g.retry = Math.min(g.retry + 1, 6);
      setTimeout(() => { if (!g.closed) connect(); }, 250 * 2 ** g.retry);
    };
  };
  connect();
}
