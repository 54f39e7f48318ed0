/* A replay's Play/Pause: the game steps forward on its own, a move a second, until its end
 * or until Pause (or a tap on any step link) stops it.
 *
 * Progressive enhancement: the step links are pages and work without this script; the Play
 * button stays hidden until the script shows it. A step is taken by clicking the page's own
 * Forward link, so its request, hx-sync and address (HX-Push-Url) are a tap's; while playing,
 * the address is replaced rather than pushed, so the browser's Back leaves the replay instead
 * of walking back through every step. The step part of the page is redrawn on each step, so
 * the control that had the keyboard focus gets it back after the redraw.
 */
(function () {
  "use strict";

  const STEP_MS = 1000;
  let playing = false;
  let timer = null;
  let focusedId = null;

  const area = () => document.getElementById("replay");
  const button = () => document.getElementById("replay-play");
  const link = (name) => document.getElementById("replay-" + name);
  const atEnd = () => link("forward").getAttribute("aria-disabled") === "true";

  function draw() {
    const control = button();
    if (!control) return;
    control.hidden = false;
    control.querySelector("[data-when-playing]").hidden = !playing;
    control.querySelector("[data-when-paused]").hidden = playing;
  }

  function nextStep() {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!playing) return;
      if (atEnd()) pause();
      else link("forward").click();
    }, STEP_MS);
  }

  function play() {
    playing = true;
    draw();
    if (atEnd()) link("start").click();  // from the end, Play plays the game again
    else nextStep();
  }

  function pause() {
    playing = false;
    clearTimeout(timer);
    draw();
  }

  document.addEventListener("click", (event) => {
    if (!area() || !area().contains(event.target)) return;
    if (event.target.closest("#replay-play")) {
      if (playing) pause();
      else play();
    } else if (event.isTrusted && event.target.closest(".replay-nav a")) {
      pause();  // the viewer took the steps in hand; the script's own clicks are not trusted
    }
  });

  document.addEventListener("htmx:beforeHistoryUpdate", (event) => {
    if (playing) event.detail.history.type = "replace";
  });

  document.addEventListener("htmx:beforeSwap", (event) => {
    if (event.detail.target !== area()) return;
    const focused = document.activeElement;
    focusedId = focused && area().contains(focused) && focused.id ? focused.id : null;
  });

  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.detail.target !== area()) return;
    draw();
    if (focusedId && document.getElementById(focusedId)) document.getElementById(focusedId).focus();
    if (playing) {
      if (atEnd()) pause();
      else nextStep();
    }
  });

  for (const failure of ["htmx:responseError", "htmx:sendError", "htmx:timeout"]) {
    document.addEventListener(failure, () => { if (playing) pause(); });
  }

  document.addEventListener("DOMContentLoaded", draw);
})();
