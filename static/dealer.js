/* The dealer tablet: one table, every hand through the rules engine.
 *
 * The page only draws what the server says (GET /api/tables/<id>/hand) and
 * posts what the dealer taps.  Each write carries the version the dealer saw
 * and an idempotency key: a write that loses the connection is sent again
 * with the same key until the server answers, so it is applied exactly once
 * (also across a server restart, and a reload of the page: the tap is kept in the
 * tab).  A 409 means another tablet was faster:
 * the answer is the current hand, which is drawn at once.
 *
 * One tap acts once (TDA 50: an action is the player's, in turn).  An action
 * button carries the version it was drawn for and the seat it names; buttons
 * drawn for a new state stay inert for ARM_MS, so the second tap of a double
 * tap never lands on the next player's identical button drawn under the finger.
 *
 * The table's changes are pushed (the tournament's event stream: ``dealer``,
 * ``seating`` and ``clock`` events); the tablet polls only while the stream is down.
 */
(function () {
  "use strict";
  // The director's pairing page: a form with data-confirm asks before it acts (unpairing a table).
  Array.prototype.forEach.call(document.querySelectorAll("form[data-confirm]"), function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.dataset.confirm)) { event.preventDefault(); }
    });
  });
  var root = document.getElementById("dealer");
  if (!root) { return; }
  var T = JSON.parse(document.getElementById("dealer-i18n").textContent);
  // Numbers, card letters and game names in the page's language (static/live.js).
  var L = window.DirectorLive.i18n;
  var api = "/api/tables/" + root.dataset.table;
  var csrf = root.dataset.csrf;
  var hand = null;          // the last hand JSON
  var next = null;          // the next hand's seats (before a deal)
  var nextSeen = null;      // its JSON as last drawn: the idle screen is redrawn only when it changes
  var absent = {};          // seats marked absent for the next deal
  var busy = false;
  var pending = null;       // the tap waiting for the connection: {what}
  var arming = false;       // buttons drawn for a new state do nothing for ARM_MS
  var armTimer = null;
  var ARM_MS = 700;
  var stream = null;        // the event stream, while it is open
  var offlineSince = null;  // when the server was last lost (Date.now()), while it is
  var OFFLINE_MIN_S = 3;    // a shorter loss is not given back to the shot clock
  var picker = null;        // {count, title, done(cards)}
  var keypadValue = "";
  var clockTimer = null;
  var dismissed = null;     // the finished hand the dealer moved on from
  var previous = null;      // that hand as last seen: Undo still takes it back until the next deal

  var $ = function (id) { return document.getElementById(id); };
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") { node.textContent = attrs[k]; }
      else if (k === "onclick") { node.addEventListener("click", attrs[k]); }
      else if (k === "className") { node.className = attrs[k]; }
      else { node.setAttribute(k, attrs[k]); }
    });
    (children || []).forEach(function (c) { if (c) { node.appendChild(c); } });
    return node;
  }
  function chips(n) { return n === null || n === undefined ? "" : L.number(Number(n)); }
  /* A sentence from the tablet's strings with %(name)s filled in. */
  function fill(text, params) {
    return String(text).replace(/%\((\w+)\)s/g, function (all, name) {
      return params[name] !== undefined ? String(params[name]) : all;
    });
  }
  /* A word the server sends as a code (a status, a log author, a ruling option), translated. */
  function word(prefix, value) {
    var text = T[prefix + value];
    return text === undefined ? String(value).replace("_", "-") : text;
  }
  function potName(index) { return index === 0 ? T.main_pot : fill(T.side_pot, {n: index}); }
  var key = window.DirectorLive.requestKey;
  /* The refusal goes where the dealer is looking: inside the open keypad or card
   * picker (under its title), else under the prompt; and it is scrolled into view. */
  function showError(text) {
    var box = $("error");
    box.textContent = text || "";
    box.hidden = !text;
    placeError();
  }
  function placeError() {
    var box = $("error");
    var pad = $("keypad"), pick = $("picker");
    var panel = !pad.hidden ? pad : (!pick.hidden ? pick : null);
    var head = panel && panel.firstElementChild;      // the panel's title (and Cancel)
    if (head) { panel.insertBefore(box, head.nextSibling); }
    else if (box.parentNode !== root) { root.insertBefore(box, $("prompt").nextSibling); }
    if (!box.hidden && box.scrollIntoView) { box.scrollIntoView({block: "nearest"}); }
  }
  /* Before a panel is redrawn, its error box goes home so that it survives. */
  function rescueError(panel) {
    var box = $("error");
    if (box.parentNode === panel) { root.insertBefore(box, $("prompt").nextSibling); }
  }
  /* The connection: a word in the bar, and while it is lost a large banner that
   * names the tap waiting to be sent (it is sent once, with the same key, when it is back). */
  function net(text, bad) {
    if (bad && offlineSince === null) { offlineSince = Date.now(); }
    if (!bad && offlineSince !== null) { backOnline(); }
    var n = $("net");
    n.textContent = text;
    n.className = "net" + (bad ? " bad" : "");
    var banner = $("offline");
    banner.hidden = !bad;
    if (bad) {
      $("offline-title").textContent = T.offline_title;
      $("offline-pending").textContent = pending ? fill(T.offline_pending, {what: pending.what}) : T.offline_nothing;
    }
  }

  /* Back after a time without the server: that time does not count against the player
   * to act (the server gives it back, no more than his turn so far).  Not sent, it waits
   * for the next time the connection is back. */
  function backOnline() {
    var seconds = Math.round((Date.now() - offlineSince) / 1000);
    offlineSince = null;
    if (seconds < OFFLINE_MIN_S || !hand || !hand.shot_clock || hand.finished) { return; }
    request("POST", "/hand/shot-clock", {seat: hand.shot_clock.seat, use: "offline",
                                         offline_seconds: Math.min(seconds, 86400), idempotency_key: key()})
      .then(function (res) {
        if (res.status === 200 && res.data.hand_id && !busy) { render(res.data); }
      }).catch(function () {
        var lost = Date.now() - seconds * 1000;
        offlineSince = offlineSince === null ? lost : Math.min(offlineSince, lost);
      });
  }
  // the browser says the network is gone (the stream may not notice for a while), or back
  window.addEventListener("offline", function () { net(T.offline, true); });
  window.addEventListener("online", function () { if (!busy) { refresh(); } });

  // ------------------------------------------------------------ talking to the server

  function request(method, path, body) {
    var opts = {method: method, headers: {"Accept": "application/json"}, credentials: "same-origin"};
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.headers["X-CSRF-Token"] = csrf;
      opts.body = JSON.stringify(body);
    }
    return fetch(api + path, opts).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        return {status: r.status, data: data};
      });
    });
  }

  /* A tap on its way is kept in this tab (sessionStorage) until the server answers: the
   * page loaded again meanwhile (the dealer's reload, or the browser waking a tab it had
   * put to sleep) sends it again with its key, so it is applied once and not lost.  One
   * older than KEPT_MS is let go: the table has moved on, the dealer taps what is now. */
  var KEPT = "director-dealer-tap-" + root.dataset.table;
  var KEPT_MS = 10 * 60 * 1000;
  function keep(tap) {
    try { window.sessionStorage.setItem(KEPT, JSON.stringify(tap)); } catch (e) { /* not kept */ }
  }
  function letGo() {
    try { window.sessionStorage.removeItem(KEPT); } catch (e) { /* nothing kept */ }
  }
  function keptTap() {
    var tap = null;
    try { tap = JSON.parse(window.sessionStorage.getItem(KEPT) || "null"); } catch (e) { tap = null; }
    letGo();
    return tap && tap.path && Date.now() - tap.at < KEPT_MS ? tap : null;
  }

  /* A write: same key until the server answers (network errors and 5xx are retried,
   * at once when the browser says the network is back).  ``what`` names the tap for
   * the lost-connection banner. */
  function send(path, body, after, what) {
    if (busy) {
      // a tap while the last one is still on its way (offline: waiting) is not taken: say so
      showError(pending ? fill(T.tap_not_taken_pending, {what: pending.what}) : T.tap_not_taken);
      return;
    }
    busy = true;
    body = Object.assign({}, body);
    if (hand && body.version === undefined && path !== "/hands") { body.version = hand.version; }
    body.idempotency_key = body.idempotency_key || key();
    pending = {what: what || T.pending_tap};
    keep({path: path, body: body, what: pending.what, at: Date.now()});
    var timer = null;
    var attempt = function (delay) {
      timer = null;
      request("POST", path, body).then(function (res) {
        if (res.status >= 500 || res.status === 0) { throw new Error("server " + res.status); }
        busy = false;
        pending = null;
        letGo();
        window.removeEventListener("online", again);
        net(T.online, false);
        if (res.status === 200 || res.status === 201) {
          showError("");
          var data = res.data.hand && res.data.ruling ? res.data.hand : res.data;
          if (data.hand_id) { render(data); }
          if (after) { after(res.data); }
        } else if (res.status === 409) {
          showError(T.stale);
          if (res.data.hand_id) { render(res.data); } else { refresh(); }
        } else if (res.status === 422) {
          showError(res.data.error);
        } else if (res.status === 400) {
          var errors = res.data.errors || {};
          showError(Object.keys(errors).map(function (k) { return errors[k]; }).join(" ") || res.data.error);
        } else {
          showError(res.data.error || ("HTTP " + res.status));
        }
      }).catch(function () {
        net(T.offline, true);
        timer = setTimeout(function () { attempt(Math.min(delay * 2, 4000)); }, delay);
      });
    };
    var again = function () {
      if (timer !== null) { clearTimeout(timer); attempt(500); }
    };
    window.addEventListener("online", again);
    attempt(500);
  }

  /* An action button: it names the seat and the version it was drawn for, and it does
   * nothing until it is armed (a double tap's second tap finds it inert). */
  function actionButton(attrs, seat, body, what) {
    var version = hand.version;
    attrs.onclick = function () {
      if (arming) { tooSoon(); return; }
      if (busy) { send(); return; }             // says why the tap is not taken
      if (!hand || hand.version !== version) { return; }
      send("/hand/actions", Object.assign({seat: seat, version: version}, body), null, what);
    };
    attrs["data-seat"] = String(seat);
    attrs["data-version"] = String(version);
    return el("button", attrs);
  }

  /* Whether a hand read from the server is newer than the one on screen.  Two reads can be
   * in flight at once (the stream's event, its reconnect, the 1.5 s poll) and answer out of
   * order: the older answer must not paint over the newer one.  Every write raises the
   * hand's version, and a new hand has a higher id. */
  function newer(data) {
    return !hand || data.hand_id > hand.hand_id
      || (data.hand_id === hand.hand_id && data.version > hand.version);
  }

  /* The hand on screen read again later, its version the same: the tournament clock
   * paused or resumed (no write to the hand), so only its shot clock stands still or runs
   * on.  The later read by the server's time wins. */
  function shotClockMoved(data) {
    var was = hand && hand.shot_clock, now = data.shot_clock;
    return !!(was && now && data.hand_id === hand.hand_id && data.version === hand.version
      && Date.parse(now.now) > Date.parse(was.now)
      && (now.paused !== was.paused || now.ends_at !== was.ends_at));
  }

  function refresh() {
    return request("GET", "/hand").then(function (res) {
      net(T.online, false);
      if (res.status === 200) {
        if (res.data.hand_id === dismissed) { loadNext(); return; }   // idle: the next hand, or why it holds
        if (newer(res.data) || shotClockMoved(res.data)) { render(res.data); }
      } else if (res.status === 404 && !hand) {
        loadNext();
      }
    }).catch(function () { net(T.offline, true); });
  }

  function loadNext() {
    return request("GET", "/next").then(function (res) {
      if (res.status !== 200 || hand) { return; }      // a hand was drawn meanwhile: it stays
      var seen = JSON.stringify(res.data);
      if (seen !== nextSeen) { nextSeen = seen; next = res.data; renderIdle(); }
    });
  }

  // ------------------------------------------------------------ drawing

  function seatBox(s, extra) {
    var pos = (hand && hand.positions) || (next && next.positions) || {};
    var marks = [];
    if (pos.button === s.seat) { marks.push(el("span", {className: "mark button-mark", text: T.badge_button})); }
    if (pos.small_blind === s.seat) { marks.push(el("span", {className: "mark", text: T.badge_small_blind})); }
    if (pos.big_blind === s.seat) { marks.push(el("span", {className: "mark", text: T.badge_big_blind})); }
    var box = el("div", {className: "seat " + (s.status || "active") + (extra || ""), "data-seat": s.seat}, [
      el("div", {className: "seat-head"}, [el("span", {className: "seat-no", text: T.seat + " " + s.seat})].concat(marks)),
      el("div", {className: "seat-name", text: s.name}),
      el("div", {className: "seat-line"}, [
        el("span", {className: "seat-stack", text: chips(s.stack !== undefined ? s.stack : s.chips)}),
        // chips in front of the seat; once the round is over they are in the pot
        s.bet && !(hand && (hand.finished || ["board", "street", "showdown"].indexOf(hand.awaiting) >= 0)) ? el("span", {className: "seat-bet", text: chips(s.bet)}) : null,
      ]),
    ]);
    // the ante a seat posted (a big-blind ante: the big blind's), while the first round is on
    if (s.posted && s.posted.ante && hand && !hand.finished && ["pre-flop", "third street"].indexOf(hand.street) >= 0) {
      box.appendChild(el("div", {className: "seat-posted", text: fill(T.ante_posted, {amount: chips(s.posted.ante)})}));
    }
    if (s.cards && s.cards.length) {
      box.appendChild(el("div", {className: "seat-cards"}, s.cards.map(cardNode)));
    }
    if (s.status && s.status !== "active") {
      box.appendChild(el("div", {className: "seat-status", text: word("status_", s.status)}));
    }
    return box;
  }

  /* A dead button (TDA 34: its seat is empty since the last hand) is drawn in its seat's
   * place among the seats, marked, so the dealer knows where to put the button. */
  function deadButton(view, seats) {
    var pos = (hand && hand.positions) || (next && next.positions) || {};
    var at = pos.button;
    if (!at || seats.some(function (s) { return s.seat === at; })) { return; }
    var box = el("div", {className: "seat empty dead-button", id: "dead-button", "data-seat": at}, [
      el("div", {className: "seat-head"}, [el("span", {className: "seat-no", text: T.seat + " " + at}),
        el("span", {className: "mark button-mark", text: T.badge_button})]),
      el("div", {className: "seat-name", text: T.dead_button}),
    ]);
    var later = Array.prototype.filter.call(view.children, function (c) { return Number(c.dataset.seat) > at; })[0];
    view.insertBefore(box, later || null);
  }

  function cardNode(c) {
    if (!c || c === "??") { return el("span", {className: "card back", text: "??"}); }
    return el("span", {className: "card suit-" + c.slice(-1), "data-card": c, text: L.card(c)});
  }

  function renderIdle() {
    hand = null;
    root.classList.remove("hand-over");
    $("hand-title").textContent = "";
    $("prompt").textContent = next ? (next.hold ? T.hold : T.mark_absent) : T.no_hand;
    var view = $("table-view");
    view.innerHTML = "";
    (next ? next.seats : []).forEach(function (s) {
      var box = seatBox(s, absent[s.seat] ? " absent" : "");
      box.setAttribute("role", "button");
      box.setAttribute("aria-pressed", absent[s.seat] ? "true" : "false");
      box.addEventListener("click", function () { absent[s.seat] = !absent[s.seat]; renderIdle(); });
      if (absent[s.seat]) { box.appendChild(el("div", {className: "seat-status", text: T.absent})); }
      else if (s.waiting) { box.appendChild(el("div", {className: "seat-status", text: T.status_waiting})); }
      view.appendChild(box);
    });
    deadButton(view, next ? next.seats : []);
    $("board").innerHTML = ""; $("pots").innerHTML = ""; $("awards").innerHTML = "";
    var controls = $("controls");
    controls.innerHTML = "";
    var dealButton = el("button", {className: "big primary", id: "deal-button", text: T.deal, onclick: deal});
    if (next && next.hold) {
      dealButton.disabled = true;
      controls.appendChild(el("p", {className: "hold", id: "hold", role: "status", text: next.hold}));
    }
    controls.appendChild(dealButton);
    if (next && next.seats && next.seats.length) {
      controls.appendChild(el("button", {className: "big", id: "count-stack", text: T.count_stack, onclick: openStackCount}));
    }
    undoButton(previous);
    arm(false);
    if (next && next.level) { $("level").textContent = next.level; }
  }

  function deal() {
    if (arming) { tooSoon(); return; }
    var seats = Object.keys(absent).filter(function (k) { return absent[k]; }).map(Number);
    send("/hands", {absent_seats: seats}, function () { absent = {}; dismissed = null; previous = null; });
  }

  /* After a new state is drawn its buttons stay inert for ARM_MS (a double tap acts once). */
  /* ``fresh``: a new state was drawn, the wait starts now; otherwise buttons redrawn
   * during the wait wait too. */
  function arm(fresh) {
    if (fresh) {
      arming = true;
      if (armTimer) { clearTimeout(armTimer); }
      armTimer = setTimeout(function () {
        arming = false; armTimer = null;
        Array.prototype.forEach.call(document.querySelectorAll("button.arming"), function (b) {
          b.disabled = false; b.classList.remove("arming");
        });
      }, ARM_MS);
    }
    if (!arming) { return; }
    Array.prototype.forEach.call(document.querySelectorAll("#controls button, #undo-button, #undo-street"), function (b) {
      if (!b.disabled) { b.disabled = true; b.classList.add("arming"); }
    });
  }
  function tooSoon() { showError(T.tap_too_soon); }
  /* A disabled button swallows its click without a word, but the finger's pointerdown still
   * reaches the page: a tap on a button that waits to be armed is not taken, and said so. */
  root.addEventListener("pointerdown", function (event) {
    var b = event.target && event.target.closest && event.target.closest("button.arming");
    if (b && arming) { tooSoon(); }
  }, true);

  function render(data) {
    var changed = !hand || hand.version !== data.version || hand.hand_id !== data.hand_id;
    hand = data;
    nextSeen = null;
    root.dataset.version = data.hand_id + "/" + data.version;   // what the screen shows
    // the hand is over: Deal next comes first and the pots' lines scroll in their own box,
    // so Deal next and Undo stay on screen after a showdown with several pots
    root.classList.toggle("hand-over", !!data.finished);
    closeKeypad(); closePicker();
    $("hand-title").textContent = "#" + data.hand_number + " · " + (L.gameName(data.game) || data.game_label);
    $("level").textContent = data.level && data.level.stakes_label ? data.level.stakes_label : "";
    $("prompt").textContent = data.prompt;
    var view = $("table-view");
    view.innerHTML = "";
    data.seats.slice().sort(function (a, b) { return a.seat - b.seat; }).forEach(function (s) {
      view.appendChild(seatBox(s, s.seat === data.to_act ? " to-act" : ""));
    });
    deadButton(view, data.seats);
    var board = $("board");
    board.innerHTML = "";
    data.board.forEach(function (c) { board.appendChild(cardNode(c)); });
    var pots = $("pots");
    pots.innerHTML = "";
    pots.appendChild(el("div", {className: "pot-total", text: T.pot + " " + chips(data.pot_total)}));
    if (data.pots.length > 1 && !data.finished) {      // at the end the award lines name every pot
      data.pots.forEach(function (p, i) {
        pots.appendChild(el("div", {className: "side-pot",
          text: potName(i) + ": " + chips(p.amount) + " · " + T.seat + " " + p.eligible.join(", ")}));
      });
    }
    var awards = $("awards");
    awards.innerHTML = "";
    data.award_text.forEach(function (t) { awards.appendChild(el("p", {className: "award", text: t})); });
    // while the hand is played; at the end the award lines say it
    (data.finished ? [] : data.returned || []).forEach(function (r) {
      pots.appendChild(el("div", {className: "returned",
        text: fill(T.returned, {amount: chips(r.amount), seat: r.seat, name: r.name})}));
    });
    renderControls(data);
    renderClock(data);
    renderShotClock(data);
    undoButton(data);
    arm(changed);
  }

  /* Undo names what it takes back ("Undo: Seat 4 raises to 800"). */
  function undoButton(data) {
    // the betting round of this street in one tap (every action back to the street's cards)
    $("undo-street").hidden = !(data && data.can_undo_street && hand === data);
    var b = $("undo-button");
    b.disabled = !(data && data.can_undo);
    b.textContent = data && data.can_undo && data.undo_label ? data.undo_label : T.undo;
  }

  function renderControls(data) {
    var c = $("controls");
    c.innerHTML = "";
    if (data.finished) {
      c.appendChild(el("button", {className: "big primary", id: "next-hand",
        text: data.misdeal ? T.misdeal_redeal : T.start_hand,
        onclick: function () {
          if (arming) { tooSoon(); return; }
          dismissed = data.hand_id; previous = data; hand = null; absent = {}; arm(true); loadNext();
        }}));
      return;
    }
    if (data.to_act !== null) {
      var reminder = ootReminder(data);
      if (reminder) { c.appendChild(reminder); }
      var who = T.seat + " " + data.to_act + " (" + data.to_act_name + ")";
      c.appendChild(el("p", {className: "acting", id: "acting", text: fill(T.acting, {who: who})}));
      data.buttons.forEach(function (b) {
        var seat = b.seat !== undefined ? b.seat : data.to_act;
        c.appendChild(actionButton({className: "big action-" + b.action, text: b.label}, seat,
          {action: b.action, amount: b.amount}, who + ": " + b.label));
      });
      if (data.any_amount) {      // never in fixed limit: its bets are the buttons
        // before Fold: Fold stays last, on a row of its own, away from Check and Call
        c.insertBefore(el("button", {className: "big", id: "amount-button",
          text: (data.current_bet > 0 ? T.amount : T.amount_bet) + " …",
          onclick: openKeypad}), c.querySelector(".action-fold"));
      }
      return;
    }
    if (data.awaiting === "board") {
      var label = {flop: T.flop_dealt, turn: T.turn_dealt, river: T.river_dealt}[data.street];
      var instruction = {flop: T.pick_flop, turn: T.pick_turn, river: T.pick_river}[data.street];
      var count = data.street === "flop" ? 3 : 1;
      c.appendChild(el("button", {className: "big primary", id: "board-dealt", text: label,
        onclick: function () { send("/hand/board", {cards: null}); }}));
      c.appendChild(el("button", {className: "big", id: "board-cards", text: T.enter_cards, onclick: function () {
        openPicker(count, instruction, function (cards) { send("/hand/board", {cards: cards}); });
      }}));
      return;
    }
    if (data.awaiting === "street") {
      // An absent seat still gets its door card on third street: it counts for the
      // bring-in (TDA RP-10-C); its hand is dead.
      // A seat whose card of the street is in already (an exposed down-card ruled his
      // up-card, TDA RP-10-A) is not asked again: its card is on the table.
      var live = data.seats.filter(function (s) {
        return !s.street_dealt && (s.status === "active" || s.status === "all_in" ||
          (s.status === "dead" && data.street === "third street"));
      });
      if (data.street === "seventh street") {
        c.appendChild(el("button", {className: "big primary", text: T.seventh,
          onclick: function () { send("/hand/deal", {cards: null}); }}));
        return;
      }
      c.appendChild(el("button", {className: "big primary", id: "up-cards", text: T.up_cards, onclick: function () {
        var picked = {};
        var i = 0;
        var ask = function () {
          if (i >= live.length) { send("/hand/deal", {cards: picked}); return; }
          var s = live[i];
          var already = Object.keys(picked).map(function (k) { return picked[k][0]; });
          openPicker(1, fill(T.pick_up, {who: T.seat + " " + s.seat + " (" + s.name + ")"}), function (cards) {
            picked[String(s.seat)] = cards; i += 1; ask();
          }, already);
        };
        ask();
      }}));
      return;
    }
    if (data.awaiting === "showdown") {
      var order = data.showdown_order;
      var holes = data.game.indexOf("7S") >= 0 ? 3 : 4;
      order.forEach(function (seat) {
        var s = data.seats.filter(function (x) { return x.seat === seat; })[0];
        var shown = s.cards && s.cards.length && s.cards.indexOf("??") < 0;
        var row = el("div", {className: "show-row", "data-seat": seat}, [
          el("span", {className: "show-who", text: T.seat + " " + seat + " (" + s.name + ")"}),
        ]);
        if (!shown) {
          row.appendChild(el("button", {className: "big", text: T.show, onclick: function () {
            openPicker(holes, fill(T.pick_shown, {who: T.seat + " " + seat + " (" + s.name + ")", n: holes}), function (cards) {
              send("/hand/show", {seat: seat, cards: cards});
            });
          }}));
          if (data.can_muck !== false) {      // at an all-in showdown every hand is tabled (TDA 16)
            row.appendChild(el("button", {className: "big", text: T.muck, onclick: function () {
              send("/hand/muck", {seat: seat});
            }}));
          }
        }
        c.appendChild(row);
      });
      c.appendChild(el("button", {className: "big", id: "award-by-hand", text: T.award_by_hand,
        onclick: function () { openAward(data); }}));
      return;
    }
  }

  // ------------------------------------------------------------ keypad (any amount)

  function openKeypad() {
    keypadValue = "";
    showError("");
    var pad = $("keypad");
    pad.hidden = false;
    drawKeypad();
  }
  function drawKeypad() {
    var pad = $("keypad");
    rescueError(pad);
    pad.innerHTML = "";
    var shown = el("output", {className: "keypad-value", id: "keypad-value", text: keypadValue ? chips(keypadValue) : "—"});
    var hint = el("p", {className: "keypad-hint",
      text: chips(hand.legal.min_to) + " – " + chips(hand.legal.max_to)});
    var keys = el("div", {className: "keys"});
    "123456789".split("").concat(["C", "0", "00"]).forEach(function (k) {
      keys.appendChild(el("button", {className: "key", text: k === "C" ? T.clear : k, onclick: function () {
        if (k === "C") { keypadValue = ""; } else if (keypadValue.length < 12) { keypadValue = (keypadValue + k).replace(/^0+/, ""); }
        drawKeypad();
      }}));
    });
    var raiseWord = hand.current_bet > 0 ? "raise" : "bet";
    pad.appendChild(el("h2", {text: raiseWord === "raise" ? T.amount : T.amount_bet}));
    pad.appendChild(el("div", {className: "keypad-head"}, [shown, hint]));
    pad.appendChild(keys);
    pad.appendChild(el("div", {className: "keypad-actions"}, [
      el("button", {className: "big", text: T.cancel, onclick: closeKeypad}),
      el("button", {className: "big primary", id: "keypad-ok", text: T.ok, onclick: function () {
        if (!keypadValue) { return; }
        send("/hand/actions", {seat: hand.to_act, action: raiseWord, amount: Number(keypadValue)}, null,
          T.seat + " " + hand.to_act + ": " + chips(keypadValue));
      }}),
    ]));
    placeError();
  }
  function closeKeypad() {
    var pad = $("keypad");
    rescueError(pad);
    pad.hidden = true; pad.innerHTML = "";
    placeError();
  }

  // ------------------------------------------------------------ card picker

  /* Cards already on the table (board, shown or up-cards, and ``extra``): not offered again. */
  function usedCards(extra) {
    var used = (extra || []).slice();
    if (hand) {
      hand.board.forEach(function (c) { used.push(c); });
      hand.seats.forEach(function (s) { (s.cards || []).forEach(function (c) { used.push(c); }); });
    }
    return used.filter(function (c) { return c && c !== "??"; });
  }

  function openPicker(count, title, done, extra) {
    picker = {count: count, done: done, cards: [], used: usedCards(extra)};
    $("picker").hidden = false;
    drawPicker(title);
  }
  function drawPicker(title) {
    var box = $("picker");
    rescueError(box);
    box.innerHTML = "";
    box.appendChild(el("div", {className: "picker-head"}, [
      el("h2", {text: title + " (" + picker.cards.length + "/" + picker.count + ")"}),
      el("button", {className: "big", id: "picker-cancel", text: T.cancel, onclick: closePicker}),
    ]));
    var grid = el("div", {className: "card-grid"});
    "shdc".split("").forEach(function (suit) {
      "AKQJT98765432".split("").forEach(function (rank) {
        var code = rank + suit;
        var chosen = picker.cards.indexOf(code) >= 0;
        var taken = picker.used.indexOf(code) >= 0;
        var b = el("button", {className: "pick suit-" + suit + (chosen ? " chosen" : ""), "data-card": code,
          text: L.card(code), onclick: function () {
            var at = picker.cards.indexOf(code);
            if (at >= 0) { picker.cards.splice(at, 1); }
            else if (picker.cards.length < picker.count) { picker.cards.push(code); }
            if (picker.cards.length === picker.count) {
              var finish = picker.done; var cards = picker.cards.slice();
              closePicker(); finish(cards);
            } else { drawPicker(title); }
          }});
        if (taken) { b.disabled = true; b.setAttribute("aria-label", fill(T.dealt_card, {card: L.card(code)})); }
        grid.appendChild(b);
      });
    });
    box.appendChild(grid);
    placeError();
  }
  function closePicker() {
    picker = null;
    var box = $("picker");
    rescueError(box);
    box.hidden = true; box.innerHTML = "";
    placeError();
  }

  // ------------------------------------------------------------ winners by hand

  /* Winners picked by hand: for each half (high; low in hi/lo) the dealer ranks the
   * players, best first, ties sharing a rank.  Each pot goes to the best-ranked players
   * eligible for it; the server refuses a pot none of the ranked players can win. */
  function openAward(data) {
    var dlg = $("rulings");
    dlg.innerHTML = "";
    var live = data.seats.filter(function (s) { return s.status === "active" || s.status === "all_in"; });
    var hilo = data.game.indexOf("/8") >= 0;
    var form = el("form", {method: "dialog", className: "award-form"});
    form.appendChild(el("h2", {text: T.winner_by_hand}));
    form.appendChild(el("p", {className: "award-help", text: T.rank_help}));
    [["high", T.high]].concat(hilo ? [["low", T.low]] : []).forEach(function (half) {
      var fs = el("fieldset", {}, [el("legend", {text: half[1]})]);
      live.forEach(function (s) {
        var id = "award-" + half[0] + "-" + s.seat;
        var select = el("select", {id: id, name: half[0], "data-seat": String(s.seat), className: "rank"});
        select.appendChild(el("option", {value: "", text: half[0] === "low" ? T.rank_no_low : T.rank_none}));
        for (var r = 1; r <= live.length; r++) {
          select.appendChild(el("option", {value: String(r), text: fill(T.rank_n, {n: r})}));
        }
        fs.appendChild(el("label", {"for": id, className: "rank-row"}, [
          el("span", {text: T.seat + " " + s.seat + " (" + s.name + ")"}), select]));
      });
      form.appendChild(fs);
    });
    var problem = el("p", {className: "dealer-error", id: "award-problem", hidden: "hidden"});
    form.appendChild(problem);
    /* The ranked seats of a half as groups, best first: [[3], [5, 7]]. */
    var groups = function (name) {
      var byRank = {};
      Array.prototype.forEach.call(form.querySelectorAll("select[name=" + name + "]"), function (sel) {
        if (sel.value) { (byRank[sel.value] = byRank[sel.value] || []).push(Number(sel.dataset.seat)); }
      });
      return Object.keys(byRank).map(Number).sort(function (a, b) { return a - b; })
        .map(function (r) { return byRank[String(r)]; });
    };
    form.appendChild(el("div", {className: "dialog-actions"}, [
      el("button", {className: "big", value: "cancel", text: T.cancel}),
      el("button", {className: "big primary", id: "award-ok", type: "button", text: T.award, onclick: function () {
        var high = groups("high"), low = groups("low");
        if (!high.length) { problem.textContent = T.rank_someone; problem.hidden = false; return; }
        dlg.close();
        send("/hand/award", {high: high, low: low}, null, T.award);
      }}),
    ]));
    dlg.appendChild(form);
    dlg.showModal();
  }

  // ------------------------------------------------------------ rulings

  /* The rulings and their fields as the server checks them (dealer_bodies.ruling_forms):
   * [{kind, label, fields: [{name, label, input, required, default, choices, min, max}]}].
   * input: seat, number, text, bool, choice, list (numbers), cards, exposed. */
  var RULINGS = {};
  var RULING_ORDER = JSON.parse($("dealer-rulings").textContent).map(function (r) {
    RULINGS[r.kind] = r;
    return r.kind;
  });

  // An action out of turn ruled before the skipped players acted backs up (TDA 53): the
  // hand keeps the reminder on the server (every tablet of the table has it) and, when the
  // action reaches that seat, the tablet offers to rule it again.
  function ootReminder(data) {
    var pending = data.oot_reminder ? Object.assign({ruling: "action_out_of_turn"}, data.oot_reminder) : null;
    if (!pending || data.finished || data.to_act !== pending.seat) { return null; }
    var what = word("option_", pending.action) + (pending.amount ? " " + chips(pending.amount) : "");
    return el("div", {className: "hold oot-reminder", id: "oot-reminder", role: "status"}, [
      el("span", {text: fill(T.oot_reminder, {seat: pending.seat, action: what})}),
      el("button", {className: "big primary", id: "oot-rule", text: T.oot_rule_now, onclick: function () {
        openRulings(pending);
      }}),
    ]);
  }

  function openRulings(prefill) {
    if (!hand) { showError(T.rulings_no_hand); return; }    // between hands: said, not silent
    prefill = prefill && prefill.ruling ? prefill : null;
    var dlg = $("rulings");
    dlg.innerHTML = "";
    var form = el("form", {method: "dialog", className: "ruling-form"});
    var select = el("select", {id: "ruling-kind", name: "ruling"});
    RULING_ORDER.forEach(function (k) {
      select.appendChild(el("option", {value: k, text: RULINGS[k].label}));
    });
    var fields = el("div", {className: "ruling-fields"});
    var result = el("div", {className: "ruling-result", id: "ruling-result", "aria-live": "polite"});
    var confirm = el("button", {className: "big primary", type: "button", id: "ruling-confirm", text: T.confirm});
    confirm.disabled = true;
    var drawFields = function () {
      fields.innerHTML = "";
      result.innerHTML = "";
      confirm.disabled = true;
      RULINGS[select.value].fields.forEach(function (f) {
        var input;
        if (f.input === "seat") {
          input = el("select", {name: f.name});
          hand.seats.forEach(function (s) {
            input.appendChild(el("option", {value: String(s.seat), text: T.seat + " " + s.seat + " (" + s.name + ")"}));
          });
          if (hand.to_act !== null) { input.value = String(hand.to_act); }
        } else if (f.input === "choice") {
          input = el("select", {name: f.name});
          f.choices.forEach(function (c) { input.appendChild(el("option", {value: c.value, text: c.label})); });
        } else if (f.input === "exposed") {
          input = exposedRows();
        } else if (f.input === "cards") {
          input = cardGrid(f.max_cards, f.name, fields);
        } else if (f.input === "bool") {
          input = el("input", {type: "checkbox", name: f.name});
          input.checked = f["default"] === true;
        } else if (f.input === "text") {
          input = el("input", {name: f.name, type: "text", maxlength: String(f.max_len), autocomplete: "off"});
        } else {
          input = el("input", {name: f.name, inputmode: "numeric", autocomplete: "off"});
        }
        var wide = f.input === "exposed" || f.input === "cards";
        fields.appendChild(el(wide ? "div" : "label", {className: "field" + (wide ? " wide" : "") + " field-" + f.input},
          [el("span", {text: f.label}), input]));
      });
    };
    var collect = function () {
      var body = {ruling: select.value};
      RULINGS[select.value].fields.forEach(function (f) {
        var input = fields.querySelector("[name=" + f.name + "]");
        if (f.input === "exposed") { body[f.name] = collectExposed(input); return; }
        if (f.input === "cards") { body[f.name] = JSON.parse(input.dataset.cards || "[]"); return; }
        if (f.input === "bool") { body[f.name] = input.checked; return; }
        var v = input.value.trim();
        if (v === "") { return; }
        if (f.input === "list") { body[f.name] = v.split(/[ ,]+/).filter(Boolean).map(Number); }
        else if (f.input === "number" || f.input === "seat") { body[f.name] = Number(v); }
        else { body[f.name] = v; }
      });
      return body;
    };
    select.addEventListener("change", drawFields);
    form.appendChild(el("h2", {text: T.preview}));
    form.appendChild(select);
    form.appendChild(fields);
    form.appendChild(el("button", {className: "big", type: "button", id: "ruling-preview", text: T.preview, onclick: function () {
      request("POST", "/hand/rulings", collect()).then(function (res) {
        result.innerHTML = "";
        if (res.status === 200) {
          var r = res.data.ruling;
          result.appendChild(el("p", {className: "ruling-rule", text: r.rule}));
          result.appendChild(el("p", {className: "ruling-text", text: r.text}));
          confirm.disabled = false;
        } else {
          var errors = res.data.errors || {};
          result.appendChild(el("p", {className: "dealer-error", text: res.data.error && !res.data.errors ? res.data.error :
            Object.keys(errors).map(function (k) { return errors[k]; }).join(" ")}));
        }
      });
    }}));
    form.appendChild(result);
    confirm.addEventListener("click", function () {
      var body = collect();
      body.confirm = true;
      dlg.close();
      send("/hand/rulings", body);
    });
    form.appendChild(el("div", {className: "dialog-actions"}, [
      el("button", {className: "big", value: "cancel", text: T.close}), confirm]));
    dlg.appendChild(form);
    if (prefill) { select.value = prefill.ruling; }
    drawFields();
    if (prefill) {
      RULINGS[prefill.ruling].fields.forEach(function (f) {
        var input = fields.querySelector("[name=" + f.name + "]");
        if (input && prefill[f.name] !== undefined && prefill[f.name] !== null) { input.value = String(prefill[f.name]); }
      });
    }
    dlg.showModal();
    if (prefill) { $("ruling-preview").click(); }
  }

  /* The card picker inside a dialog (a modal dialog leaves the page's own picker inert):
   * tap up to ``max`` cards; the chosen codes are kept in ``data-cards``. */
  function cardGrid(max, name, form) {
    var box = el("div", {className: "card-grid mini", name: name, "data-cards": "[]"});
    var used = usedCards();
    /* A stud exposed down-card ruled after the street was entered: the card the dealer
     * entered as that seat's up-card may be the exposed one (TDA RP-10-A made it his
     * up-card), so the chosen seat's own up-cards stay tappable. */
    var own = function () {
      var pick = form && form.querySelector("select[name=seat]");
      var seat = pick ? Number(pick.value) : null;
      var s = hand && hand.seats.filter(function (x) { return x.seat === seat; })[0];
      return (s && s.up_cards) || [];
    };
    var mark = function () {
      var mine = own();
      Array.prototype.forEach.call(box.querySelectorAll("button"), function (b) {
        b.disabled = used.indexOf(b.dataset.card) >= 0 && mine.indexOf(b.dataset.card) < 0;
      });
    };
    if (form) { form.addEventListener("change", mark); }
    "shdc".split("").forEach(function (suit) {
      "AKQJT98765432".split("").forEach(function (rank) {
        var code = rank + suit;
        var b = el("button", {type: "button", className: "pick suit-" + suit, "data-card": code, text: L.card(code),
          onclick: function () {
            var chosen = JSON.parse(box.dataset.cards);
            var at = chosen.indexOf(code);
            if (at >= 0) { chosen.splice(at, 1); }
            else if (chosen.length < max) { chosen.push(code); }
            else if (max === 1) { chosen = [code]; }
            box.dataset.cards = JSON.stringify(chosen);
            Array.prototype.forEach.call(box.querySelectorAll("button"), function (x) {
              x.classList.toggle("chosen", chosen.indexOf(x.dataset.card) >= 0);
            });
          }});
        if (used.indexOf(code) >= 0) { b.disabled = true; }
        box.appendChild(b);
      });
    });
    if (form) { setTimeout(mark, 0); }       // once the seat field above it is drawn
    return box;
  }

  /* An exposed hole card, as a dealer knows it: whose, and which of his cards (first
   * to fourth dealt), and optionally the card itself; the server works out where it was
   * in the deal.  "Another card" adds a row. */
  function exposedRows() {
    var box = el("div", {className: "exposed-rows", name: "exposed"});
    var holes = hand && hand.game.indexOf("7S") >= 0 ? 3 : 4;
    var addRow = function () {
      var row = el("div", {className: "exposed-row"});
      var seat = el("select", {className: "exposed-seat", "aria-label": T.seat});
      hand.seats.forEach(function (s) {
        seat.appendChild(el("option", {value: String(s.seat), text: T.seat + " " + s.seat + " (" + s.name + ")"}));
      });
      var which = el("select", {className: "exposed-card", "aria-label": T.exposed_which});
      for (var k = 1; k <= holes; k++) { which.appendChild(el("option", {value: String(k), text: T["nth_card_" + k]})); }
      var grid = cardGrid(1, "exposed-code");
      row.appendChild(el("div", {className: "exposed-pick"}, [seat, which]));
      row.appendChild(el("span", {className: "exposed-code-label", text: T.exposed_code}));
      row.appendChild(grid);
      box.insertBefore(row, more);
    };
    var more = el("button", {type: "button", className: "big", id: "exposed-more", text: T.exposed_more, onclick: addRow});
    box.appendChild(more);
    addRow();
    return box;
  }
  function collectExposed(box) {
    return Array.prototype.map.call(box.querySelectorAll(".exposed-row"), function (row) {
      var item = {seat: Number(row.querySelector(".exposed-seat").value),
                  card: Number(row.querySelector(".exposed-card").value)};
      var code = JSON.parse(row.querySelector(".card-grid").dataset.cards)[0];
      if (code) { item.code = code; }
      return item;
    });
  }

  // ------------------------------------------------------------ the clock (TDA 29)

  function renderClock(data) {
    var box = $("clock-call");
    if (clockTimer) { clearInterval(clockTimer); clockTimer = null; }
    var call = data.clock_call;
    if (!call || data.finished || data.to_act !== call.seat) { box.hidden = true; box.innerHTML = ""; return; }
    box.hidden = false;
    var ends = Date.parse(call.ends_at);
    // drawn once, the tick changes the number (as the shot clock: Cancel stays the same
    // button under the finger)
    box.innerHTML = "";
    box.appendChild(el("span", {className: "clock-seat", text: T.seat + " " + call.seat}));
    box.appendChild(el("button", {className: "big", id: "clock-cancel", text: T.clock_cancel, onclick: function () {
      send("/hand/clock", {seat: null}, null, T.clock_cancel);
    }}));
    var number = el("span", {className: "clock-left", id: "clock-left"});
    var unit = el("span", {text: " " + T.seconds_left});
    box.appendChild(number);
    box.appendChild(unit);
    var tick = function () {
      var left = Math.ceil((ends - Date.now()) / 1000);
      if (left > 0) {
        box.className = "clock-call" + (left <= 5 ? " countdown" : "");
        if (number.textContent !== String(left)) { number.textContent = String(left); }
        return;
      }
      box.className = "clock-call expired";
      number.removeAttribute("id");
      number.textContent = T.expired;
      unit.replaceWith(el("button", {className: "big primary", id: "clock-apply", text: T.rule_clock, onclick: function () {
        send("/hand/rulings", {ruling: "clock_expired", confirm: true});
      }}));
      clearInterval(clockTimer); clockTimer = null;
    };
    tick();
    if (box.className.indexOf("expired") < 0) { clockTimer = setInterval(tick, 250); }
  }

  // ------------------------------------------------------------ the shot clock (house rule)

  /* The time of the player to act, large for the table: it counts from the moment the
   * server says the action reached him, turns orange at the warning, offers his time-bank
   * cards, and when it has run out asks the server to apply the house rule (once; the
   * server checks the time itself). */
  var shotTimer = null;
  var shotSent = null;
  function renderShotClock(data) {
    var box = $("shot-clock");
    if (shotTimer) { clearInterval(shotTimer); shotTimer = null; }
    var shot = data.shot_clock;
    if (!shot || data.finished || data.to_act !== shot.seat) { box.hidden = true; box.innerHTML = ""; return; }
    box.hidden = false;
    // counted on the server's clock: the tablet's own may be off by seconds
    var ends = Date.parse(shot.ends_at) - (Date.parse(shot.now) - Date.now());
    var mark = data.hand_id + "/" + shot.seat + "/" + shot.ends_at;
    var who = T.seat + " " + shot.seat;
    var frozen = null;        // the tournament clock is paused: the shot clock stands still
    // drawn once; the tick changes the number and the colour only.  A box drawn again on
    // every tick would swap the time-bank button under a finger: a tap whose press and
    // lift fall on two buttons is no click at all, and the dealer's tap would be lost.
    box.innerHTML = "";
    var number = el("span", {className: "shot-left", id: "shot-left"});
    box.appendChild(el("span", {className: "shot-seat", text: who}));
    box.appendChild(number);
    box.appendChild(el("span", {className: "shot-unit", text: shot.paused ? T.shot_paused : T.seconds_left}));
    var bank = el("button", {className: "big", id: "time-bank", type: "button",
      text: fill(T.time_bank, {n: shot.cards_left}), onclick: function () {
        send("/hand/shot-clock", {seat: shot.seat, use: "time_bank"}, null, fill(T.time_bank, {n: shot.cards_left}));
      }});
    bank.disabled = shot.cards_left <= 0;
    box.appendChild(bank);
    var tick = function () {
      var left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
      if (shot.paused) { frozen = frozen === null ? Math.max(1, left) : frozen; left = frozen; }
      box.className = "shot-clock" + (left === 0 ? " expired" : (left <= shot.warn_seconds ? " warn" : ""));
      if (number.textContent !== String(left)) { number.textContent = String(left); }
      if (left > 0) { return; }
      bank.replaceWith(el("span", {className: "shot-rule", text: shot.expiry === "dead" ? T.shot_dead : T.shot_check_fold}));
      clearInterval(shotTimer); shotTimer = null;
      if (shotSent !== mark && !busy) {
        shotSent = mark;
        send("/hand/shot-clock", {seat: shot.seat, use: "expired"}, null, T.shot_expired);
      }
    };
    tick();
    if (box.className.indexOf("expired") < 0 && !shot.paused) { shotTimer = setInterval(tick, 250); }
  }

  /* A stack counted between hands (hidden chips found, a miscount, TDA 25): the dealer
   * picks the seat and types the count; the player's chips become it. */
  function openStackCount() {
    var dlg = $("rulings");
    dlg.innerHTML = "";
    var seat = el("select", {id: "stack-seat", name: "seat"});
    next.seats.forEach(function (s) {
      seat.appendChild(el("option", {value: String(s.seat), text: T.seat + " " + s.seat + " (" + s.name + ") · " + chips(s.chips)}));
    });
    var count = el("input", {id: "stack-chips", name: "chips", inputmode: "numeric", autocomplete: "off"});
    var problem = el("p", {className: "dealer-error", id: "stack-problem", hidden: "hidden"});
    dlg.appendChild(el("form", {method: "dialog", className: "ruling-form"}, [
      el("h2", {text: T.count_stack}),
      el("label", {className: "field"}, [el("span", {text: T.seat}), seat]),
      el("label", {className: "field"}, [el("span", {text: T.counted_chips}), count]),
      problem,
      el("div", {className: "dialog-actions"}, [
        el("button", {className: "big", value: "cancel", text: T.cancel}),
        el("button", {className: "big primary", type: "button", id: "stack-save", text: T.ok, onclick: function () {
          var n = count.value.replace(/\D/g, "");
          if (!n) { problem.textContent = T.counted_chips; problem.hidden = false; return; }
          request("POST", "/stack", {seat: Number(seat.value), chips: Number(n), idempotency_key: key()}).then(function (res) {
            if (res.status === 200) { dlg.close(); next = res.data; nextSeen = null; renderIdle(); return; }
            var errors = res.data.errors || {};
            problem.textContent = res.data.error || Object.keys(errors).map(function (k) { return errors[k]; }).join(" ");
            problem.hidden = false;
          }).catch(function () { problem.textContent = T.offline; problem.hidden = false; });
        }}),
      ]),
    ]));
    dlg.showModal();
  }

  // ------------------------------------------------------------ tools

  $("undo-button").addEventListener("click", function () {
    if (arming) { tooSoon(); return; }
    if (busy) { send(); return; }
    if (hand) { send("/hand/undo", {}, null, hand.undo_label || T.undo); return; }
    if (previous && previous.can_undo) {          // idle after a finished hand: it comes back
      var back = previous;
      dismissed = null; previous = null;
      send("/hand/undo", {version: back.version});
    }
  });
  $("undo-street").addEventListener("click", function () {
    if (arming) { tooSoon(); return; }
    if (busy) { send(); return; }
    if (hand && hand.can_undo_street) { send("/hand/undo", {street: true}, null, T.undo_street); }
  });
  $("rulings-button").addEventListener("click", openRulings);
  /* Calling the clock asks first (it starts a countdown a player can lose his hand to). */
  $("clock-button").addEventListener("click", function () {
    if (!hand || hand.to_act === null) { showError(T.clock_nobody); return; }
    var seat = hand.to_act;
    var who = T.seat + " " + seat + " (" + hand.to_act_name + ")";
    var dlg = $("rulings");
    dlg.innerHTML = "";
    dlg.appendChild(el("form", {method: "dialog", className: "clock-form"}, [
      el("h2", {text: fill(T.clock_confirm, {who: who})}),
      el("p", {text: T.clock_explain}),
      el("div", {className: "dialog-actions"}, [
        el("button", {className: "big", value: "cancel", id: "clock-no", text: T.cancel}),
        el("button", {className: "big primary", type: "button", id: "clock-yes", text: T.clock_call, onclick: function () {
          dlg.close();
          send("/hand/clock", {seat: seat}, null, fill(T.clock_confirm, {who: who}));
        }}),
      ]),
    ]));
    dlg.showModal();
  });
  /* The hand's log, oldest first.  The hand carries its last lines: the dialog says so and
   * offers the rest (GET .../hand/log). */
  function drawLog(lines, partial) {
    var dlg = $("log");
    dlg.innerHTML = "";
    var actions = [el("button", {className: "big", text: T.close})];
    if (partial) {
      dlg.appendChild(el("p", {className: "log-partial", id: "log-partial", text: fill(T.log_last, {n: lines.length})}));
      actions.unshift(el("button", {className: "big", type: "button", id: "log-all", text: T.log_all, onclick: function () {
        request("GET", "/hand/log").then(function (res) {
          if (res.status === 200) { drawLog(res.data.log, false); }
        }).catch(function () { showError(T.offline); });
      }}));
    }
    var list = el("ol", {className: "log-list"});
    lines.slice().reverse().forEach(function (e) {
      list.appendChild(el("li", {text: e.at.slice(11, 19) + " · " + word("who_", e.who) + " · " + e.text}));
    });
    dlg.appendChild(list);
    dlg.appendChild(el("form", {method: "dialog", className: "dialog-actions"}, actions));
    if (!dlg.open) { dlg.showModal(); }
    list.scrollTop = list.scrollHeight;        // the newest line in view
  }
  $("log-button").addEventListener("click", function () {
    drawLog((hand && hand.log) || [], !!(hand && hand.log_partial));
  });

  // ------------------------------------------------------------ push, with polling as the fallback

  /* The tournament's event stream says when this table's hand changed (``dealer``) or
   * when the next hand's seats may have (``seating``, ``clock``: balancing, hand-for-hand,
   * a break).  While it is open the tablet does not poll; when it drops, it polls every
   * 1.5 s until the browser has reconnected it. */
  function listen() {
    if (!window.EventSource || !root.dataset.events) { return; }
    window.DirectorLive.openStream(root.dataset.events, follow);
  }
  function follow(source) {
    source.onopen = function () { stream = source; net(T.online, false); refresh(); };
    source.onerror = function () { stream = null; };
    source.addEventListener("dealer", function (event) {
      var data = JSON.parse(event.data);
      if (String(data.table_id) !== String(root.dataset.table)) { return; }
      if (!hand || data.hand_id !== hand.hand_id || data.version !== hand.version || data.log) { poll(); }
    });
    var idle = function () { if (!hand) { loadNext(); } };
    source.addEventListener("seating", function (event) {
      // a hand at another table that only moved chips changes nothing of this table's
      // next hand, unless it waits for the others (hand-for-hand): at 300 tables a hand
      // finishes every second or so, and every idle tablet read its next hand again
      if (window.DirectorLive.onlyChipsMoved(event) && next && !next.hold) { return; }
      idle();
    });
    // the tournament clock paused or resumed: the shot clock stands still or starts again
    source.addEventListener("clock", function () { if (hand && hand.shot_clock) { poll(); } else { idle(); } });
  }
  /* Read the hand unless the dealer is in the middle of something (it is read after). */
  function poll() {
    if (!busy && !picker && $("keypad").hidden) { refresh(); }
  }

  var resumed = keptTap();     // a tap the page was sending when it was loaded again
  if (resumed) { send(resumed.path, resumed.body, null, resumed.what); }
  refresh();
  listen();
  setInterval(function () {
    if (!stream || stream.readyState !== 1) { poll(); }
  }, 1500);
})();
