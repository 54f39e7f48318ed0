/* Rounds and deals added and removed without the network (docs/result-entry.md "Offline
 * entry").
 *
 * With the network, "+ Add round", "Remove last round", its Undo and Conquian's deal buttons
 * ask the server to redraw the sheet. Without it (the browser says it is offline, or an htmx
 * button's request cannot be sent), this file makes the same change in the page: a new row
 * comes from the <template> the server drew beside the grid, the very markup of a row with
 * the placeholders __index__, __number__ (and Conquian's __value__, the deal's worth) where
 * its place goes, so its fields have the names the server reads. The page says the totals
 * wait for the network (#entry-offline-rows); Save then keeps the sheet, rows and all, in
 * IndexedDB and sends it once the network is back (entry_offline.js). When the browser is
 * online again, the totals are asked for once more.
 */
(function () {
  "use strict";

  var changedOffline = false;

  function sheetForm() {
    return document.getElementById("sheet-form");
  }

  function showLine(id, shown) {
    var line = document.getElementById(id);
    if (line) line.hidden = !shown;
  }

  // A fragment from a row template, the placeholders filled in.
  function fromTemplate(template, values) {
    var holder = document.createElement("template");
    holder.innerHTML = template.innerHTML.replace(/__(index|number|value)__/g, function (all, name) {
      return String(values[name]);
    });
    return holder.content;
  }

  function activate(element) {
    if (window.htmx && element) htmx.process(element);
  }

  // --- Корова: rounds ---------------------------------------------------------------------

  function rounds(form) {
    return form.querySelectorAll('tbody > tr[id^="round-"]');
  }

  function addRound(form, cells) {
    var template = document.getElementById("round-template");
    var rows = rounds(form);
    if (!template || !rows.length || rows.length >= Number(template.dataset.max)) return;
    var last = rows[rows.length - 1];
    var count = rows.length;
    last.nextElementSibling.after(fromTemplate(template, { index: count, number: count + 1 }));
    var inputs = document.getElementById("round-" + (count + 1)).querySelectorAll("input");
    Array.prototype.forEach.call(inputs, function (input, seat) {
      if (cells) input.value = cells[seat];
    });
    var remove = document.getElementById("remove-round");
    if (remove) remove.disabled = false;
    inputs[0].focus();
  }

  function removeRound(form) {
    var rows = rounds(form);
    if (rows.length <= 1) return;
    var last = rows[rows.length - 1];
    last.nextElementSibling.remove(); // its messages' row
    last.remove();
    var remove = document.getElementById("remove-round");
    if (remove && rows.length - 1 <= 1) remove.disabled = true;
  }

  // The server's Undo after "Remove last round": the removed cells ride along as JSON.
  function restoreRound(form, text) {
    var cells;
    try {
      cells = JSON.parse(text);
    } catch (error) {
      return;
    }
    if (!Array.isArray(cells)) return;
    var rows = rounds(form);
    var last = rows[rows.length - 1];
    var blank = Array.prototype.every.call(last.querySelectorAll("input"), function (input) {
      return !input.value.trim();
    });
    if (blank && rows.length > 1) removeRound(form); // a blank last round makes way
    if (blank && rows.length === 1) {
      Array.prototype.forEach.call(last.querySelectorAll("input"), function (input, seat) {
        input.value = cells[seat];
      });
    } else {
      addRound(form, cells);
    }
    var line = document.getElementById("round-removed");
    if (line) line.remove();
  }

  // --- Conquian: deals --------------------------------------------------------------------

  function nextValue(value, result, carryOver) {
    var drawn = result !== "home" && result !== "away";
    if (!drawn || carryOver === "none") return 1;
    return carryOver === "double" ? value * 2 : value + 1;
  }

  function addDeal(single, result) {
    var section = document.getElementById("single-" + single);
    var template = document.getElementById("single-" + single + "-deal-template");
    if (!section || !template) return;
    var list = section.querySelector("ol.deal-list");
    var deals = list ? list.querySelectorAll("select") : [];
    if (deals.length >= Number(template.dataset.max)) return;
    var value = 1;
    Array.prototype.forEach.call(deals, function (deal) {
      value = nextValue(value, deal.value, template.dataset.carryOver);
    });
    if (!list) {
      list = document.createElement("ol");
      list.className = "deal-list";
      var none = section.querySelector(":scope > p.muted"); // "No deals yet."
      if (none) none.replaceWith(list);
      else template.before(list);
    }
    list.appendChild(fromTemplate(template, { index: deals.length, number: deals.length + 1, value: value }));
    var select = list.lastElementChild.querySelector("select");
    select.value = result;
    Array.prototype.forEach.call(select.querySelectorAll('option[value=""]'), function (option) {
      option.remove(); // "Choose…" is for a deal not chosen
    });
    activate(list.lastElementChild);
    var undo = document.getElementById("single-" + single + "-undo-template");
    if (undo && !document.getElementById("undo-" + single)) {
      template.before(fromTemplate(undo, {}));
      activate(document.getElementById("undo-" + single));
    }
  }

  function undoDeal(single) {
    var section = document.getElementById("single-" + single);
    var list = section && section.querySelector("ol.deal-list");
    if (list && list.lastElementChild) list.lastElementChild.remove();
  }

  // --- the buttons --------------------------------------------------------------------------

  var DEAL = /^(add|undo):([01])(?::(home|draw|away))?$/;
  var RESTORE = "restore_round:";

  // Makes the change of the button's action in the page; false if it is none of ours.
  function apply(form, action) {
    var deal = DEAL.exec(action);
    if (action === "add_round") addRound(form);
    else if (action === "remove_round") removeRound(form);
    else if (action.indexOf(RESTORE) === 0) restoreRound(form, action.slice(RESTORE.length));
    else if (deal && deal[1] === "add" && deal[3]) addDeal(deal[2], deal[3]);
    else if (deal && deal[1] === "undo" && !deal[3]) undoDeal(deal[2]);
    else return false;
    changedOffline = true;
    showLine("entry-needs-network", false);
    showLine("entry-offline-rows", true);
    return true;
  }

  function ours(button) {
    var form = sheetForm();
    return button && form && button.form === form && button.name === "action" && button.value !== "save"
      ? form
      : null;
  }

  // Offline, before the page's own handlers (htmx's on the button, the form's submission).
  document.addEventListener(
    "click",
    function (event) {
      var button = event.target.closest ? event.target.closest("button") : null;
      var form = ours(button);
      if (!form || navigator.onLine !== false) return;
      if (!apply(form, button.value)) return;
      event.preventDefault();
      event.stopPropagation();
    },
    true
  );

  // Online as far as the browser knows, but an htmx button's request could not be sent.
  document.addEventListener("htmx:sendError", function (event) {
    var button = event.detail.elt;
    var form = ours(button);
    if (form) apply(form, button.value);
  });

  // The network is back: the totals (and the messages Save would give) for the sheet as it is.
  window.addEventListener("online", function () {
    var form = sheetForm();
    showLine("entry-offline-rows", false);
    if (!changedOffline || !form || !window.htmx) return;
    changedOffline = false;
    var target = document.getElementById("korova-totals") || document.getElementById("conquian-singles");
    if (!target) return;
    htmx.ajax("POST", form.getAttribute("action"), {
      source: form,
      target: "#" + target.id,
      swap: "outerHTML",
      values: { action: "preview" },
    });
  });
})();
