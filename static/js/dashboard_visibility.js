/* The live dashboard tells its socket whether its tab is seen: while it is hidden (the
 * teacher shows the projector view, or another tab), the server draws nothing for it,
 * and draws the whole page once it is seen again. Sent on every (re)connection, since a
 * new socket starts as seen, and on every change of visibility. */
(function () {
  "use strict";
  let socket = null;
  function tell() {
    if (socket) socket.send(JSON.stringify({ type: "visibility", hidden: document.hidden }));
  }
  document.addEventListener("htmx:wsOpen", (event) => {
    if (!event.target.hasAttribute("data-dashboard")) return;
    socket = event.detail.socketWrapper;
    if (document.hidden) tell();
  });
  document.addEventListener("htmx:wsClose", (event) => {
    if (event.target.hasAttribute("data-dashboard")) socket = null;
  });
  document.addEventListener("visibilitychange", tell);
})();
