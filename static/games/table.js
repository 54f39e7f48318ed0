/* A live table page: the table's event stream (each change brings the live part as this
 * viewer sees it, or says the page shows it already; a bare change, or polling every few
 * seconds while the stream is down, fetches it with a conditional GET), the countdown, the
 * lost-connection notice, and building a move from the cards the player taps. Keyboard focus
 * across those updates is static/games/phone.js's.
 *
 * The page's HTML says everything game-specific through data attributes, so this file
 * knows no game:
 *   [data-hand][data-select="one|many"]   the hand; its buttons [data-card] are tapped to select
 *   [data-template]  a submit button whose move is built from the selection:
 *                    $card is the one selected card, $cards the list of them (as JSON)
 *   [data-allowed]   the cards (space separated) for which that button applies; it is
 *                    enabled (and, with [data-hide-unless-allowed], shown) only then
 *   [data-events]    on #table-live: the table's event stream (server-sent events; the page
 *                    names itself there and in its requests, so that the stream does not
 *                    send a part the page's own request was just answered with), and
 *   [data-poll-seconds]  how often to fetch the live part while that stream is down
 *   [data-etag]      the ETag of what is shown; polls send it as If-None-Match
 *   [data-turn]      the turn shown: a pushed part of an earlier turn comes late, and is dropped
 *   [data-deadline], [data-server-now], [data-countdown]   the turn clock
 *   [data-animate-once="key"]  animated (class "stepped") the first time its key shows only,
 *                    not again when a poll redraws the same thing
 */
(function () {
  "use strict";

  htmx.config.responseHandling = [
    { code: "204", swap: false },
    { code: "304", swap: false },          // nothing changed since the last poll
    { code: "[23]..", swap: true },
    { code: "40[039]|429", swap: true },    // a refused move: the table again, with the reason
    { code: "[45]..", swap: false, error: true },
    { code: "...", swap: false },
  ];

  // A stream that is up pings every 15 s; one silent for longer is down (or a proxy holds its
  // events back), and the live part is then fetched every [data-poll-seconds] instead.
  const STREAM_SILENT_MS = 35000;

  let selected = [];
  let pollTimer = null;
  let lastHeard = 0;
  const animated = new Set();
  let clockOffset = 0;   // server time minus this device's time, in ms
  let requestsUnderWay = 0;   // the live part's own (a move, a fetch)
  let heardMeanwhile = false;
  let waitingMove = null;     // a move's form, from its send until htmx issues its request
  const pageId = Array.from(crypto.getRandomValues(new Uint8Array(12)),
                            (byte) => byte.toString(16).padStart(2, "0")).join("");

  const live = () => document.getElementById("table-live");
  const hand = () => live() && live().querySelector("[data-hand]");

  function asJson(card) {
    return /^\d+$/.test(card) ? card : JSON.stringify(card);
  }

  function refresh() {
    const area = live();
    const handArea = hand();
    if (!area) return;
    const inHand = handArea
      ? Array.from(handArea.querySelectorAll("[data-card]:not([disabled])"), (b) => b.dataset.card)
      : [];
    selected = selected.filter((card) => inHand.includes(card));
    if (handArea) {
      handArea.querySelectorAll("[data-card]").forEach((button) => {
        button.setAttribute("aria-pressed", String(selected.includes(button.dataset.card)));
      });
    }
    const single = selected.length === 1 ? selected[0] : null;
    area.querySelectorAll("[data-allowed]").forEach((control) => {
      const allowed = single !== null && control.dataset.allowed.split(" ").includes(single);
      control.disabled = !allowed;
      control.classList.toggle("target", allowed);
      if (control.hasAttribute("data-hide-unless-allowed")) control.hidden = !allowed;
    });
    area.querySelectorAll("[data-template]").forEach((control) => {
      const needsOne = /\$card(?!s)/.test(control.dataset.template);
      if (needsOne && single === null) {
        control.disabled = true;
        return;
      }
      control.value = control.dataset.template
        .replace("$cards", "[" + selected.map(asJson).join(", ") + "]")
        .replace("$card", single === null ? "null" : asJson(single));
      if (!control.hasAttribute("data-allowed")) control.disabled = false;
      if (control.dataset.label && single !== null) {
        control.textContent = control.dataset.label.replace("$card", single);
      }
    });
  }

  function animateOnce() {
    const area = live();
    if (!area) return;
    area.querySelectorAll("[data-animate-once]").forEach((element) => {
      const key = element.dataset.animateOnce;
      if (animated.has(key)) element.classList.remove("stepped");
      animated.add(key);
    });
  }

  function syncClock() {
    const head = live() && live().querySelector("[data-server-now]");
    if (head) clockOffset = Date.parse(head.dataset.serverNow) - Date.now();
    tick();
  }

  function tick() {
    const head = live() && live().querySelector("[data-deadline]");
    const shown = live() && live().querySelector("[data-countdown]");
    if (!head || !shown) return;
    const left = Math.max(0, Date.parse(head.dataset.deadline) - (Date.now() + clockOffset));
    const seconds = Math.ceil(left / 1000);
    // "30 s" in the page's language (the catalogue at /jsi18n/, loaded before this script).
    const text = window.interpolate
      ? interpolate(gettext("%(seconds)s s"), { seconds: seconds }, true)
      : seconds + " s";
    if (shown.textContent !== text) shown.textContent = text;
    shown.classList.toggle("running-out", seconds <= 5);
  }

  function setConnection(ok) {
    // While the device says it is offline the notice stays (an event the stream had under
    // way may still come in), until the "online" event opens the stream again.
    if (ok && navigator.onLine === false) return;
    const notice = document.getElementById("connection");
    if (notice && notice.hidden === ok) return;
    if (notice) notice.hidden = ok;
    document.body.classList.toggle("offline", !ok);
  }

  function changed() {
    const area = live();
    if (area) htmx.trigger(area, "table-changed");
  }

  // A part drawn for an earlier turn than the one shown is not shown: its event was overtaken
  // by the answer to a move (which another server process may have served), and showing it
  // would take the page back in the game, offering a move the table has gone past.
  function olderTurn(html) {
    const head = live().querySelector("[data-turn]");
    const drawn = /data-turn="(\d+)"/.exec(html);
    return Boolean(head && drawn && Number(drawn[1]) < Number(head.dataset.turn));
  }

  // The stream's event: the live part drawn for this viewer (shown as a fetch's answer is), its
  // ETag alone (the page shows it already), or neither (the page fetches it).
  function heardChange(data) {
    const area = live();
    if (!area) return;
    if (requestsUnderWay > 0) {
      // A move or fetch of this page is under way, and its answer may be newer or older than
      // this part: once it has been shown, a conditional fetch settles which (as before the
      // parts were pushed, its queue keeps the two in order).
      if (typeof data.html === "string" || typeof data.etag !== "string") heardMeanwhile = true;
      return;
    }
    const head = area.querySelector("[data-etag]");
    if (typeof data.html === "string" && olderTurn(data.html)) return;
    if (typeof data.html === "string" && !(head && head.dataset.etag === data.etag)) {
      // No htmx:afterSwap for this swap (eventInfo without a target): the steps below run once.
      // Settled as every swap of the site (templates/document.html: at once, so that a card
      // tapped in the new part is htmx's).
      htmx.swap(area, data.html,
                { swapStyle: "innerHTML", swapDelay: 0, settleDelay: htmx.config.defaultSettleDelay },
                { eventInfo: {} });
      animateOnce();
      refresh();
      syncClock();
    } else if (typeof data.etag !== "string") {
      changed();
    }
  }

  function poll(on) {
    if (on && pollTimer === null) {
      pollTimer = setInterval(changed, 1000 * Number(live().dataset.pollSeconds || 5));
    } else if (!on && pollTimer !== null) {
      clearInterval(pollTimer);
      pollTimer = null;
    }
  }

  // The first event comes as soon as the stream opens, with the whole live part, so a page
  // that reconnects catches up. EventSource reconnects by itself; polling covers the gap, and a stream that
  // says nothing for longer than its pings allow (a buffering proxy) counts as down.
  function listen() {
    const area = live();
    if (!area || !area.dataset.events || !window.EventSource) {
      poll(true);
      return;
    }
    let source = null;
    const heard = () => {
      lastHeard = Date.now();
      setConnection(true);
      poll(false);
    };
    const open = () => {
      if (source) source.close();
      const head = area.querySelector("[data-etag]");
      const shown = head ? "&shown=" + encodeURIComponent(head.dataset.etag) : "";
      source = new EventSource(area.dataset.events + "?page=" + pageId + shown);
      source.onmessage = (message) => {
        heard();
        let data = {};
        try {
          data = JSON.parse(message.data);
        } catch (error) {
          // not one of the stream's events: fetch the live part all the same
        }
        heardChange(data);
      };
      source.addEventListener("ping", heard);
      source.onerror = () => {
        // CONNECTING: the browser tries again (a lost connection, a restarted server), and
        // says so; CLOSED: the server answered that it does not stream (204): polling is all.
        if (source.readyState === EventSource.CONNECTING) setConnection(false);
        poll(true);
      };
    };
    open();
    setInterval(() => {
      if (Date.now() - lastHeard > STREAM_SILENT_MS) poll(true);
    }, 5000);
    // The device lost its network: say so at once (an open stream may take a while to fail),
    // and when it is back, open the stream again, which brings the table up to date.
    window.addEventListener("offline", () => {
      setConnection(false);
      poll(true);
    });
    window.addEventListener("online", open);
  }

  document.addEventListener("click", (event) => {
    const card = event.target.closest("[data-hand] [data-card]");
    if (!card || card.disabled) return;
    const many = card.closest("[data-hand]").dataset.select === "many";
    const code = card.dataset.card;
    if (selected.includes(code)) {
      selected = selected.filter((c) => c !== code);
    } else {
      selected = many ? selected.concat([code]) : [code];
    }
    refresh();
  });

  document.addEventListener("htmx:configRequest", (event) => {
    const area = live();
    if (!area || !area.contains(event.detail.elt)) return;
    event.detail.headers["X-Table-Page"] = pageId;
    if (event.detail.elt !== area || event.detail.verb !== "get") return;
    const head = area.querySelector("[data-etag]");
    if (head) event.detail.headers["If-None-Match"] = head.dataset.etag;
  });

  // A move waits for the live part's request under way (the part's hx-sync queues it), and htmx
  // drops a waiting request whose form is gone: no fetched part may redraw the move's form until
  // the move has gone, or the card put down is never sent. The move's answer shows the table.
  // (htmx asks for confirmation before it queues a request, and again when it issues it.)
  document.addEventListener("htmx:confirm", (event) => {
    const area = live();
    if (area && event.detail.elt !== area && area.contains(event.detail.elt)) {
      waitingMove = event.detail.elt;
    }
  });

  document.addEventListener("htmx:beforeRequest", (event) => {
    const area = live();
    if (!area || !area.contains(event.detail.elt)) return;
    requestsUnderWay += 1;
    if (event.detail.elt === waitingMove) waitingMove = null;
  });

  document.addEventListener("htmx:beforeSwap", (event) => {
    // (Told on the target: the request's own element is the config's. A move's own answer
    // redraws the form, and drops a second press of it that waited.)
    const fetched = event.detail.requestConfig && event.detail.requestConfig.elt === live();
    if (fetched && waitingMove && document.contains(waitingMove)) event.detail.shouldSwap = false;
  });

  document.addEventListener("htmx:afterRequest", (event) => {
    // (A move's form is gone once its answer is shown: htmx then tells the live part itself.)
    if (live() && live().contains(event.detail.elt)) {
      requestsUnderWay = Math.max(0, requestsUnderWay - 1);
      if (requestsUnderWay === 0 && heardMeanwhile) {
        heardMeanwhile = false;
        changed();
      }
    }
    const xhr = event.detail.xhr;
    if (!xhr || xhr.status === 0) return;   // a network failure: see sendError below
    setConnection(true);
    // The table is gone (its creator closed it while it waited): the reload shows the 404 page.
    if (event.detail.elt === live() && xhr.status === 404) window.location.reload();
    if (event.detail.requestConfig && event.detail.requestConfig.verb === "post" && xhr.status === 200) {
      selected = [];
      refresh();
    }
  });
  document.addEventListener("htmx:sendError", () => setConnection(false));
  document.addEventListener("htmx:timeout", () => setConnection(false));

  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.detail.target !== live()) return;
    animateOnce();
    refresh();
    syncClock();
  });

  document.addEventListener("DOMContentLoaded", () => {
    animateOnce();
    refresh();
    syncClock();
    setInterval(tick, 250);
    listen();
  });
})();
