/* Result entry (staff pages): keyboard and focus. The pages work without this file; it only
 * makes them quicker to use.
 *
 * - Enter in a number field moves to the next one, in the order of the page; in the last one
 *   of the grid it saves (the form's first button is Save, so Enter never adds or removes a
 *   round even without this file).
 * - On the conflict page, choosing "Use yours" or "Keep saved" writes that value into the
 *   field, so the totals follow the choice.
 * - A link in the list of problems puts the focus in its field (a plain link only scrolls).
 * - When htmx redraws a part of the page, the focus stays on the button it was on (htmx gives
 *   it to the new button with the same id: Conquian's deal buttons); if that button is gone (a
 *   single that was just won loses them), it goes to the single's heading, not to the top of
 *   the page. A focus that moved on while the redraw settled stays where it went.
 */
(function () {
  "use strict";

  function sheetForm() {
    return document.getElementById("sheet-form");
  }

  function numberFields(form) {
    return Array.prototype.filter.call(
      form.querySelectorAll('input[inputmode="numeric"]'),
      function (field) { return !field.disabled && field.offsetParent !== null; }
    );
  }

  document.addEventListener("keydown", function (event) {
    var field = event.target;
    var form = sheetForm();
    if (event.key !== "Enter" || event.isComposing || !form || field.form !== form) return;
    if (field.getAttribute("inputmode") !== "numeric") return;
    event.preventDefault();
    var fields = numberFields(form);
    var next = fields[fields.indexOf(field) + 1];
    if (next) {
      next.focus();
      next.select();
    } else {
      form.requestSubmit(document.getElementById("save-result"));
    }
  });

  document.addEventListener("change", function (event) {
    var choice = event.target;
    var form = sheetForm();
    if (!form || !choice.matches("input[data-clash-field]")) return;
    var value = JSON.parse(choice.getAttribute("data-value"));
    var field = form.elements.namedItem(choice.getAttribute("data-clash-field"));
    if (!field || field.type !== "text" || (value !== null && typeof value === "object")) return;
    field.value = value === null ? "" : String(value);
    field.dispatchEvent(new Event("input", { bubbles: true }));
  });

  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest('#sheet-errors a[href^="#"]') : null;
    var field = link && document.getElementById(link.getAttribute("href").slice(1));
    if (!field) return;
    event.preventDefault();
    field.focus();
  });

  // htmx itself gives the focus back to a redrawn element with the same id (Conquian's deal
  // buttons have ids); what it cannot do is find a place for a focus whose element is gone.
  var focusWasIn = false;
  var focusedBlock = "";
  document.addEventListener("htmx:beforeSwap", function () {
    var active = document.activeElement;
    focusWasIn = Boolean(active && active !== document.body);
    focusedBlock = focusWasIn && active.getAttribute ? active.getAttribute("data-block") || "" : "";
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    // Only a focus the swap dropped is placed: one that htmx gave back, or that moved on while
    // the swap settled (Enter in a cell as a preview of the totals came in), stays where it is.
    if (!focusWasIn || (document.activeElement && document.activeElement !== document.body)) return;
    var block = document.getElementById(focusedBlock);
    var heading = (block || event.detail.elt).querySelector("h2");
    if (heading) {
      heading.setAttribute("tabindex", "-1");
      heading.focus();
    }
  });
})();
