// engine.js: the game's engine in the page, for local games: the Go
// packages of the server (engine, dice, bots, the solo policy of hints)
// compiled to WebAssembly (cmd/farkle-wasm, served as /static/farkle.wasm).
// It is loaded the first time a local game needs it, never before: the
// other pages do not pay for it.
let loading = null;

function script(src) {
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = src;
    s.onload = resolve;
    s.onerror = () => reject(new Error(`cannot load ${src}`));
    document.head.appendChild(s);
  });
}

// call calls the module's function name with args, reading its JSON answer
// (an object with "error" is thrown as an Error).
function call(name, ...args) {
  const out = globalThis.farkleEngine[name](...args);
  if (typeof out !== 'string') return out;
  const v = JSON.parse(out);
  if (v && typeof v === 'object' && !Array.isArray(v) && typeof v.error === 'string') throw new Error(v.error);
  return v;
}

// loadEngine returns the engine once its module runs: an object whose
// methods are the module's (see cmd/farkle-wasm) with JSON read and errors
// thrown.
export function loadEngine() {
  if (!loading) {
    loading = (async () => {
      await script('/static/wasm_exec.js');
      const go = new globalThis.Go();
      const ready = new Promise((resolve) => { globalThis.farkleEngineReady = resolve; });
      const resp = fetch('/static/farkle.wasm');
      const { instance } = await WebAssembly.instantiateStreaming(resp, go.importObject);
      go.run(instance);
      await ready;
      return {
        levels: () => call('levels'),
        presets: () => call('presets'),
        newGame: (setup, lang) => call('newGame', JSON.stringify(setup), lang).id,
        resume: (record, seed, lang) => call('resume', record, seed, lang).id,
        welcome: (id, you) => call('welcome', id, you),
        act: (id, seat, msg) => call('act', id, seat, JSON.stringify(msg)),
        botToAct: (id) => call('botToAct', id),
        botAct: (id) => call('botAct', id),
        toAct: (id) => call('toAct', id),
        hint: (id, seat) => call('hint', id, seat),
        record: (id) => globalThis.farkleEngine.record(id),
        setEnded: (id, when) => call('setEnded', id, when),
        close: (id) => call('close', id),
      };
    })();
    loading.catch(() => { loading = null; });
  }
  return loading;
}
