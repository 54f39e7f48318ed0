/* A live table on a phone (docs/play-pages.md, decision 17): keyboard focus stays where it was
 * when the table's live part is redrawn (after a move, a bot's move, a poll or a pushed
 * update), and when a Convoy turn of the player's own begins the board is brought into view
 * under the turn bar, with the hand held at the foot of the screen (CSS).
 *
 * It watches the live part for changes (a MutationObserver), so it does not depend on how the
 * new HTML arrives; static/games/table.js draws and sends, this file only restores.
 */
(function () {
  "use strict";

  const live = () => document.getElementById("table-live");
  const FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";
  const MOVE_FORM = "#move-form";   // tabindex="-1": it can hold the focus (restoreFocus)
  let remembered = null;   // {selector, index, inForm}: the control last focused in the live part
  let holding = false;     // the move form holds the focus until it offers a control
  let scrolledTurn = null;

  function selectorOf(element) {
    if (element.id) return "#" + CSS.escape(element.id);
    if (element.dataset.card) return '[data-card="' + CSS.escape(element.dataset.card) + '"]';
    // Before the value: a move's button takes its value from the cards picked (table.js), so
    // only its template finds it again once redrawn (disabled until a card is picked: the
    // focus then goes to the card before it, not to whatever control comes next).
    if (element.dataset.template) {
      return '[data-template="' + CSS.escape(element.dataset.template) + '"]';
    }
    if (element.name && element.value) {
      return element.tagName.toLowerCase() + '[name="' + CSS.escape(element.name) + '"][value="' +
        CSS.escape(element.value) + '"]';
    }
    return null;
  }

  // A control of the move form is placed among the form's controls, any other among the live
  // part's: the form is where a player's next move is made, and its controls come and go.
  function remember(element) {
    const area = live();
    if (!area || !area.contains(element)) return;
    const form = element.closest(MOVE_FORM);
    const all = Array.from((form || area).querySelectorAll(FOCUSABLE));
    remembered = { selector: selectorOf(element), index: all.indexOf(element), inForm: !!form };
  }

  function focusable(element) {
    return element && !element.disabled && !element.hidden && element.getClientRects().length > 0;
  }

  function restoreFocus() {
    const area = live();
    if (!area || !remembered) return;
    const active = document.activeElement;
    const form = area.querySelector(MOVE_FORM);
    if (holding && form && (active === form || active === document.body)) {
      // The form held the focus while it offered nothing (htmx gives a redrawn form the focus
      // back by its id): its first control once it offers one, the next turn's hand.
      const first = Array.from(form.querySelectorAll(FOCUSABLE)).find(focusable);
      if (first) first.focus({ preventScroll: true });
      else if (active !== form) form.focus({ preventScroll: true });
      return;
    }
    if (active && active !== document.body && document.contains(active)) return;
    const scope = remembered.inForm && form ? form : area;
    const all = Array.from(scope.querySelectorAll(FOCUSABLE)).filter(focusable);
    let target = remembered.selector ? area.querySelector(remembered.selector) : null;
    if (!focusable(target)) {
      if (target) {
        // The control is still there but disabled or hidden: the nearest one before it.
        const before = (element) =>
          target.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_PRECEDING;
        target = all.filter(before).pop() || all[0];
      } else {
        // The control went with the move (a card played): the one now in its place, else the
        // nearest before it, so that the focus stays at the same spot on the page.
        target = all.filter((element, index) => index <= remembered.index).pop() || all[0];
      }
      // Nothing to play in the form just now (one's card is down, the others are still to
      // pick): the form itself holds the focus, rather than a control after it such as "Ask
      // for a pause", which a second Enter would press.
      if (!target && scope === form) target = form;
    }
    holding = target === form;
    if (target) target.focus({ preventScroll: true });
  }

  function boardIntoView() {
    const area = live();
    if (!area) return;
    const board = area.querySelector(".convoy-board");
    const head = area.querySelector("[data-turn]");
    const mine = area.querySelector(".clock.mine");
    if (!board || !head || !mine || window.matchMedia("(min-width: 900px)").matches) return;
    const turn = head.dataset.turn;
    if (scrolledTurn === turn) return;
    scrolledTurn = turn;
    const bar = area.querySelector(".turn-bar");
    const below = bar ? bar.getBoundingClientRect().height : 0;
    const top = board.getBoundingClientRect().top;
    const bottom = board.getBoundingClientRect().bottom;
    const hand = area.querySelector("[data-hand]");
    const handTop = hand ? hand.getBoundingClientRect().top : window.innerHeight;
    if (top >= below && bottom <= Math.min(window.innerHeight, handTop)) return;
    window.scrollTo({ top: window.scrollY + top - below - 4, behavior: "instant" });
  }

  document.addEventListener("focusin", (event) => {
    if (!event.target.matches(MOVE_FORM)) holding = false;
    remember(event.target);
  });
  // A control the player left on purpose (it is still on the page, and could still be focused)
  // is not focused again. One that lost the focus by being disabled or hidden did not lose it
  // on purpose (Chrome moves the focus to the page's body and fires focusout, the control
  // still on the page): the focus goes to the nearest control before it.
  document.addEventListener("focusout", (event) => {
    const left = event.target;
    setTimeout(() => {
      if (!document.contains(left) || document.activeElement !== document.body) return;
      if (focusable(left)) remembered = null;
      else restoreFocus();
    }, 0);
  });

  document.addEventListener("DOMContentLoaded", () => {
    const area = live();
    if (!area) return;
    boardIntoView();
    new MutationObserver(() => {
      restoreFocus();
      boardIntoView();
    }).observe(area, { childList: true, subtree: true });
  });
})();
