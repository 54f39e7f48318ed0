// The pub's TV screen: shows a banner when the board has not been refreshed for three
// refresh intervals (the network or the site is down); htmx keeps polling meanwhile.
(function () {
  "use strict";
  var lastFresh = Date.now();
  function board() { return document.getElementById("board"); }
  document.addEventListener("htmx:afterSwap", function () {
    lastFresh = Date.now();
    document.body.classList.remove("stale");
    var clock = board() && board().querySelector(".clock time");
    var since = document.querySelector("[data-stale-since]");
    if (clock && since) { since.textContent = clock.textContent.slice(0, 5); }
  });
  setInterval(function () {
    var current = board();
    if (!current) { return; }
    var limit = Number(current.dataset.staleSeconds || 45) * 1000;
    document.body.classList.toggle("stale", Date.now() - lastFresh > limit);
  }, 1000);
})();
