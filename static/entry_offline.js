/* Result entry that survives the pub's Wi-Fi (docs/result-entry.md "Offline entry").
 *
 * Save keeps the sheet in this browser (IndexedDB, one sheet per entry page) before sending
 * it, and lets it go only once the server has answered. While the network is down the page
 * says so (#entry-waiting) and the sheet waits; it is sent again when the browser says it is
 * back online, every RETRY_SECONDS while the network looks up but does not answer, and
 * whenever the entry page loads. Each sheet carries the submission key of the form it was
 * typed into, so sending it twice saves it once; it carries its version too, so a result saved
 * by someone else meanwhile gives the conflict page, as a plain Save would.
 *
 * The server's answer decides what follows: a redirect means saved (on to the fixture's page,
 * where the message says so); any other answer (the conflict page, a sheet with errors, a
 * refusal) is asked for again as a normal form submission, so that the browser shows it as it
 * would have shown the plain Save's. That page names the key it answered (data-answered-key)
 * and the kept sheet goes then.
 *
 * The service worker (templates/scoring/entry_sw.js) keeps the page and its files, so that a
 * reload without the network still shows the form, with the waiting sheet put back in it.
 * Without this file (or IndexedDB) Save is the plain form POST.
 */
(function () {
  "use strict";

  var form = document.getElementById("sheet-form");
  if (!form || !window.indexedDB || !window.fetch || !window.Promise) return;

  var DATABASE = "roundel-entry";
  var STORE = "waiting-sheets";
  var RETRY_SECONDS = 30;
  var pageUrl = form.getAttribute("action");
  var sending = false;

  // --- IndexedDB: one record per entry page and user, {url, user, key, fields, html, keptAt} --

  function openDatabase() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DATABASE, 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore(STORE, { keyPath: ["url", "user"] });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function inStore(mode, work) {
    return openDatabase().then(function (database) {
      return new Promise(function (resolve, reject) {
        var transaction = database.transaction(STORE, mode);
        var request = work(transaction.objectStore(STORE));
        transaction.oncomplete = function () {
          database.close();
          resolve(request.result);
        };
        transaction.onerror = transaction.onabort = function () {
          database.close();
          reject(transaction.error);
        };
      });
    });
  }

  // The sheet the user now logged in left waiting on this page: on a phone passed from hand
  // to hand, someone else's waits for them (it is sent as its author only).
  function waitingSheet() {
    return inStore("readonly", function (store) { return store.get([pageUrl, form.dataset.user]); });
  }

  function keepSheet(sheet) {
    return inStore("readwrite", function (store) { return store.put(sheet); });
  }

  function letGo(sheet) {
    var id = [sheet.url, sheet.user];
    return inStore("readonly", function (store) {
      return store.get(id);
    }).then(function (kept) {
      // A newer sheet typed meanwhile (another key) stays.
      if (!kept || kept.key !== sheet.key) return undefined;
      return inStore("readwrite", function (store) { return store.delete(id); });
    });
  }

  // --- the form ------------------------------------------------------------------------

  function keyField() {
    return form.elements.namedItem("submission_key");
  }

  function csrfToken() {
    var field = form.elements.namedItem("csrfmiddlewaretoken");
    return field ? field.value : "";
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID().replace(/-/g, "");
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  // The form as HTML with what was typed written into it, so that a reload without the network
  // shows the very sheet that waits, rounds added since the page was kept included.
  function snapshot() {
    var copy = form.cloneNode(true);
    var typed = form.querySelectorAll("input, select, textarea");
    var copied = copy.querySelectorAll("input, select, textarea");
    Array.prototype.forEach.call(typed, function (field, index) {
      var twin = copied[index];
      if (field.type === "checkbox" || field.type === "radio") {
        twin.toggleAttribute("checked", field.checked);
      } else if (field.tagName === "SELECT") {
        Array.prototype.forEach.call(field.options, function (option, at) {
          twin.options[at].toggleAttribute("selected", option.selected);
        });
      } else if (field.tagName === "TEXTAREA") {
        twin.textContent = field.value;
      } else {
        twin.setAttribute("value", field.value);
      }
    });
    return copy.outerHTML;
  }

  function putBack(sheet) {
    var token = csrfToken();
    var holder = document.createElement("div");
    holder.innerHTML = sheet.html;
    var kept = holder.firstElementChild;
    if (!kept || kept.id !== "sheet-form") return;
    form.replaceWith(kept);
    form = kept;
    // The page's own token (the kept one may be older) and a fresh key: a change saved from
    // here is a new submission, not the waiting one again.
    form.elements.namedItem("csrfmiddlewaretoken").value = token;
    keyField().value = newKey();
    if (window.htmx) htmx.process(form);
  }

  function showLine(id, shown) {
    var line = document.getElementById(id);
    if (line) line.hidden = !shown;
  }

  function showWaiting(waiting) {
    showLine("entry-waiting", waiting);
  }

  // An answer the server gave without saving (the conflict page, errors, a refusal): asked
  // again as the plain form would, so that the browser shows it as a page.
  function submitAsPage(sheet) {
    var plain = document.createElement("form");
    plain.method = "post";
    plain.action = sheet.url;
    plain.hidden = true;
    sheet.fields.forEach(function (pair) {
      var field = document.createElement("input");
      field.type = "hidden";
      field.name = pair[0];
      field.value = pair[0] === "csrfmiddlewaretoken" ? csrfToken() : pair[1];
      plain.appendChild(field);
    });
    document.body.appendChild(plain);
    HTMLFormElement.prototype.submit.call(plain);
  }

  function reached(response) {
    // A gateway's 502/503/504: the server itself has not been reached.
    if (response.status >= 502 && response.status <= 504) throw new Error("not reached");
    return response;
  }

  // First a look at the page itself: a redirect there means the session has ended (the login
  // page), which the plain submission shows; so that a redirect answering the sheet can only
  // mean "saved" (its Location is hidden from fetch, and following it would use up the
  // "Result saved" message meant for the next page).
  function send(sheet) {
    if (sending) return;
    sending = true;
    var body = new URLSearchParams();
    sheet.fields.forEach(function (pair) {
      body.append(pair[0], pair[0] === "csrfmiddlewaretoken" ? csrfToken() : pair[1]);
    });
    fetch(sheet.url, { credentials: "same-origin", redirect: "manual", cache: "no-store" })
      .then(reached)
      .then(function (page) {
        if (page.type === "opaqueredirect") return page;
        return fetch(sheet.url, {
          method: "POST",
          body: body,
          credentials: "same-origin",
          redirect: "manual",
          headers: { "X-CSRFToken": csrfToken() },
        }).then(reached).then(function (answer) {
          if (answer.type !== "opaqueredirect") return answer;
          return letGo(sheet).then(function () {
            window.location.assign(form.dataset.savedUrl);
            return null;
          });
        });
      })
      .then(function (answer) {
        if (answer) submitAsPage(sheet);
      })
      .catch(function () {
        sending = false;
        showWaiting(true);
      });
  }

  function sendWaiting() {
    if (sending || navigator.onLine === false) return;
    waitingSheet().then(function (sheet) { if (sheet) send(sheet); });
  }

  // A button the server answers by redrawing the sheet, which it cannot do offline (the page
  // would be lost for an error page). Adding and removing rounds and deals is done in the page
  // offline (entry_offline_rows.js, before this); anything else says so and keeps what is typed.
  function needsNetwork(event) {
    event.preventDefault();
    showLine("entry-needs-network", true);
  }

  document.addEventListener("htmx:sendError", function (event) {
    if (event.detail.elt && event.detail.elt.tagName === "BUTTON") showLine("entry-needs-network", true);
  });
  window.addEventListener("online", function () { showLine("entry-needs-network", false); });

  document.addEventListener("submit", function (event) {
    var button = event.submitter;
    if (event.target !== form || event.defaultPrevented) return;
    var saving = !button || (button.name === "action" && button.value === "save");
    if (!saving && navigator.onLine === false) {
      needsNetwork(event);
      return;
    }
    if (!button || !saving) return;
    event.preventDefault();
    var fields = [];
    new FormData(form, button).forEach(function (value, name) {
      if (typeof value === "string") fields.push([name, value]);
    });
    var sheet = {
      url: pageUrl,
      user: form.dataset.user,
      key: keyField().value,
      fields: fields,
      html: snapshot(),
      keptAt: new Date().toISOString(),
    };
    keepSheet(sheet).then(function () {
      keyField().value = newKey();
      showWaiting(navigator.onLine === false);
      if (navigator.onLine === false) return;
      sending = false;
      send(sheet);
    }, function () {
      // Nowhere to keep it (storage refused): the plain Save.
      HTMLFormElement.prototype.submit.call(form);
    });
  });

  // --- when the page loads, and when the network comes back ------------------------------

  keyField().value = newKey(); // a page shown from the cache must not repeat its old key
  waitingSheet().then(function (sheet) {
    if (!sheet) return;
    if (sheet.key && sheet.key === form.dataset.answeredKey) {
      letGo(sheet); // this page is the server's answer to it
      return;
    }
    putBack(sheet);
    showWaiting(true);
    sendWaiting();
  });
  window.addEventListener("online", sendWaiting);
  window.setInterval(sendWaiting, RETRY_SECONDS * 1000);

  // --- the service worker: keep this page and its files for a reload without the network ---

  if ("serviceWorker" in navigator && form.dataset.serviceWorker) {
    navigator.serviceWorker
      .register(form.dataset.serviceWorker, { scope: form.dataset.serviceWorkerScope })
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function (registration) {
        var files = document.querySelectorAll("script[src], link[rel~='stylesheet'], link[rel~='icon']");
        var urls = [pageUrl].concat(Array.prototype.map.call(files, function (file) {
          return file.src || file.href;
        }));
        var channel = new MessageChannel();
        channel.port1.onmessage = function (event) {
          if (event.data && event.data.kept) document.documentElement.dataset.offlineReady = "true";
        };
        registration.active.postMessage({ keep: urls }, [channel.port2]);
      })
      .catch(function () { return undefined; }); // no worker: the page still keeps its sheet
  }
})();
