/* Socket counts of the htmx WebSocket pages (lobby, session, live tables), for tests and
 * support: the same `window.dpSockets` object as the game client (play/client.js).
 * `opened` counts sockets that opened, `reconnects` the attempts after an element's
 * first, `lastClose` the last close's code. htmx's ws extension fires these events on
 * the ws-connect element; they bubble to the document. */
(function () {
  "use strict";
  const stats = (window.dpSockets = window.dpSockets || { opened: 0, reconnects: 0, lastClose: null });
  const connected = new WeakSet();
  document.addEventListener("htmx:wsConnecting", (event) => {
    if (connected.has(event.target)) stats.reconnects += 1;
    else connected.add(event.target);
  });
  document.addEventListener("htmx:wsOpen", () => {
    stats.opened += 1;
  });
  document.addEventListener("htmx:wsClose", (event) => {
    const close = event.detail && event.detail.event;
    stats.lastClose = close ? { code: close.code, reason: close.reason, at: Date.now() } : null;
  });
})();
