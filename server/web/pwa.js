// pwa.js: the installable web app. It points the manifest at the page's
// language, registers the service worker (sw.js: the app shell, the
// catalogues and the local games' engine kept for offline play), and
// reloads the page once when a new release's worker takes it over, so no
// page of an old release stays open. A local game in progress is saved at
// every action (local.js), so the reload loses nothing.
import { lang } from './i18n.js';

const link = document.querySelector('link[rel="manifest"]');
if (link) link.href = `/manifest.webmanifest?lang=${lang}`;

// ready resolves once a service worker controls the page (never without
// one: an old browser, or a page not served over HTTPS or localhost).
export const ready = (async () => {
  if (!('serviceWorker' in navigator)) return null;
  try {
    // The first worker taking the page is no new release; a later one is.
    let had = !!navigator.serviceWorker.controller;
    navigator.serviceWorker.addEventListener('controllerchange', () => {
      if (had) location.reload();
      had = true;
    });
    await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    return await navigator.serviceWorker.ready;
  } catch {
    return null;
  }
})();
