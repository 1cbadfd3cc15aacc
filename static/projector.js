/* The projector page: counts down from ends_at on its own clock, shows the
 * break screen, and sounds a tone (Web Audio) at a level change, at one
 * minute left and at a break. */
(function () {
  "use strict";
  var screen = document.getElementById("screen");
  var fmt = DirectorLive.formatSeconds;
  var i18n = DirectorLive.i18n, t = i18n.t;
  var $ = function (id) { return document.getElementById(id); };
  var audio = null;
  var lastIndex = null, lastVersion = null, warned = {};

  function ensureAudio() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    if (!audio) audio = new Ctx();
    if (audio.state === "suspended") audio.resume();
    return audio;
  }

  /* notes: [[frequency Hz, start s, length s], ...] */
  function play(notes) {
    var ctx = audio;
    if (!ctx || ctx.state !== "running") return;
    var t0 = ctx.currentTime + 0.05;
    notes.forEach(function (n) {
      var osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = n[0];
      gain.gain.setValueAtTime(0.0001, t0 + n[1]);
      gain.gain.exponentialRampToValueAtTime(0.5, t0 + n[1] + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + n[1] + n[2]);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t0 + n[1]);
      osc.stop(t0 + n[1] + n[2] + 0.05);
    });
  }
  var TONES = {
    level: [[660, 0, 0.25], [880, 0.3, 0.45]],
    minute: [[880, 0, 0.3]],
    "break": [[880, 0, 0.3], [660, 0.35, 0.3], [523, 0.7, 0.6]]
  };
  screen.dataset.lastTone = "";
  function tone(kind) {
    screen.dataset.lastTone = kind;           // visible to tests and to curious directors
    play(TONES[kind]);
  }

  var levelTitle = i18n.levelTitle;
  var S = {};
  try { S = JSON.parse($("clock-strings").textContent); } catch (e) { /* English keys */ }
  function s(key, params) {
    var text = S[key] === undefined ? key : S[key];
    return text.replace(/%\((\w+)\)s/g, function (all, name) {
      return params && params[name] !== undefined ? String(params[name]) : all;
    });
  }
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /* The next level on its own: "Level 3 · Seven-card stud hi/lo", its stakes below. */
  function renderNext(next) {
    var box = $("p-next");
    box.textContent = "";
    if (!next) { box.textContent = "—"; }
    else if (next.is_break) { box.textContent = t("break"); }
    else {
      box.appendChild(el("span", "stake", levelTitle(next)));
      box.appendChild(document.createTextNode(t("separator")));
      box.appendChild(el("span", "p-next-game", i18n.gameName(next.game)));
    }
    i18n.renderStakes($("p-next-stakes"), next && !next.is_break ? next : null);
  }

  /* The average stack in big blinds (stud: in big bets), e.g. "41 BB". */
  function averageInBlinds(state) {
    var level = state.level && !state.level.is_break ? state.level : state.next_level;
    if (!state.average_stack || !level || level.is_break) return "";
    var stud = (level.game || "").indexOf("7S") !== -1;
    var unit = stud ? level.big_bet : (level.big_blind || level.big_bet);
    if (!unit) return "";
    var count = Math.round(state.average_stack / unit * 10) / 10;
    if (count >= 10) count = Math.round(count);
    return s(stud ? "in_big_bets" : "in_bb", { count: i18n.number(count) });
  }

  var BANNERS = {
    hand_for_hand: function () { return s("banner_hand_for_hand"); },
    bubble: function (b) { return s("banner_bubble", { places: i18n.number(b.places_paid) }); },
    in_the_money: function (b) { return s("banner_in_the_money", { places: i18n.number(b.places_paid) }); },
    seat_bubble: function (b) { return s("banner_seat_bubble", { seats: i18n.number(b.seats) }); },
    final_table: function () { return s("banner_final_table"); },
    colour_up: function (b) {      // the note itself when it already says so ("Colour-up: ...")
      var label = s("banner_colour_up");
      if (!b.note) return label;
      return b.note.toLowerCase().indexOf(label.toLowerCase().slice(0, 5)) === 0 ? b.note : label + ": " + b.note;
    },
    finished: function () { return s("banner_finished"); }
  };
  function renderBanners(state) {
    var box = $("p-banners");
    box.textContent = "";
    (state.banners || []).forEach(function (b) {
      if (!BANNERS[b.kind] || b.kind === "finished") return;
      box.appendChild(el("div", "p-banner p-banner-" + b.kind.replace(/_/g, "-"), BANNERS[b.kind](b)));
    });
    box.classList.toggle("hidden", !box.childNodes.length);
    var colourUp = (state.banners || []).some(function (b) { return b.kind === "colour_up"; });
    var level = state.level || {};
    $("p-break-note").textContent = level.is_break && !colourUp ? (level.note || "") : "";
  }

  /* Rows shown a page at a time in ``list``, as many as its box holds: each page is filled
   * row by row (a long name may take two lines), the next page every PAGE_MS, "2 of 5" in
   * ``label``.  A list that is not cut (a phone: it scrolls with the page) shows them all. */
  var PAGE_MS = 6000;
  function Pager(list, label) { this.list = list; this.label = label; this.rows = []; this.page = 0; this.pages = 1; }
  Pager.prototype.set = function (rows) { this.rows = rows; this.show(); };
  Pager.prototype.next = function () { if (this.pages > 1) { this.page += 1; this.show(); } };
  Pager.prototype.show = function () {
    var list = this.list, rows = this.rows;
    list.textContent = "";
    this.pages = 1;
    this.label.textContent = "";
    if (!rows.length) return;
    if (getComputedStyle(list).overflowY === "visible" || !list.clientHeight) {
      rows.forEach(function (row) { list.appendChild(row); });
      return;
    }
    var fill = function (from) {        // the rows from ``from`` that fit; the next one's index
      list.textContent = "";
      var i = from;
      for (; i < rows.length; i += 1) {
        list.appendChild(rows[i]);
        if (i > from && list.scrollHeight > list.clientHeight + 1) { list.removeChild(rows[i]); break; }
      }
      return i;
    };
    var starts = [0];
    for (var next = fill(0); next < rows.length; next = fill(next)) { starts.push(next); }
    this.pages = starts.length;
    if (this.page >= this.pages) this.page = 0;
    fill(starts[this.page]);
    if (this.pages > 1) this.label.textContent = s("page", { page: this.page + 1, pages: this.pages });
  };

  var winnerLabel = document.querySelector(".p-winner-label");
  var winnerText = winnerLabel.textContent;
  var resultsPager = new Pager($("p-results"), $("p-results-page"));
  function renderWinner(state) {
    var finished = state.status === "finished";
    document.body.classList.toggle("finished", finished);
    $("p-winner-name").textContent = state.winner ? state.winner.name : "";
    var sat = state.satellite;
    winnerLabel.textContent = sat ? s("seats_won_label") : winnerText;
    var rows = [];
    var row = function (place, name, amount) {
      var li = el("li");
      li.appendChild(el("span", "p-place", place));
      li.appendChild(el("span", "p-who", name));
      li.appendChild(el("span", "p-amount", amount));
      rows.push(li);
    };
    if (finished && sat) {   // a satellite's winner screen: every seat winner, each with his seat
      $("p-winner-name").textContent = "";
      (sat.winners || []).forEach(function (name, i) {
        row(String(i + 1), name, s("seats", { amount: i18n.money(sat.seat_value, state.currency) }));
      });
    } else if (finished) {
      (state.results || []).forEach(function (r) {
        row(r.place, r.name, r.prize === null || r.prize === undefined ? "" : i18n.money(r.prize, state.currency));
      });
    }
    resultsPager.set(rows);
  }

  function render(state) {
    var level = state.level || {};
    document.body.classList.toggle("on-break", !!level.is_break);
    document.body.classList.toggle("paused", !state.running);
    $("p-name").textContent = state.name || "";
    $("p-level-number").textContent = levelTitle(level);
    $("p-game").textContent = level.is_break ? "" : i18n.gameName(level.game);
    i18n.renderStakes($("p-stakes"), level.is_break ? null : level);
    renderNext(state.next_level);
    $("p-status").textContent = state.running ? "" : (state.started ? t("paused") : t("not_started"));
    // a figure the event does not have yet (nobody registered): a dash, as "Next break in"
    $("p-players").textContent = i18n.number(state.players_left) || "—";
    $("p-average").textContent = i18n.number(state.average_stack) || "—";
    $("p-average-bb").textContent = averageInBlinds(state);
    $("p-prize").textContent = i18n.money(state.prize_pool, state.currency);
    renderBanners(state);
    renderMoney(state);
    renderWinner(state);
    renderLeaders(state);
    renderTicker(state);
    screen.dataset.levelIndex = state.level_index;
    if (lastIndex !== null && state.level_index !== lastIndex) {
      tone(level.is_break ? "break" : "level");
    }
    lastIndex = state.level_index;
    lastVersion = state.version;
    tick();
  }

  /* The chip leaders (issue 17): the five biggest stacks from the tablets' live counts.
   * As many rows as the column holds; a long name is cut with an ellipsis. */
  function renderLeaders(state) {
    var leaders = state.status === "finished" ? [] : (state.chip_leaders || []);
    var list = $("p-leaders");
    list.textContent = "";
    $("p-leaders-cell").classList.toggle("hidden", !leaders.length);
    leaders.forEach(function (leader) {
      var row = el("li");
      row.appendChild(el("span", "p-who", leader.name));
      row.appendChild(el("span", "p-amount", i18n.number(leader.chips)));
      list.appendChild(row);
    });
    var room = list.clientHeight;                     // drop the rows that do not fit
    while (list.lastChild && list.scrollHeight > room + 1 && getComputedStyle(list).overflowY !== "visible") {
      list.removeChild(list.lastChild);
    }
    if (leaders.length && !list.childNodes.length) $("p-leaders-cell").classList.add("hidden");
  }

  /* The director's announcement (issue 17): a strip along the bottom; a text longer than
   * the screen scrolls through it. */
  var tickerText = null;
  function renderTicker(state) {
    var text = state.status === "finished" ? "" : (state.announcement || "");
    var box = $("p-ticker");
    box.classList.toggle("hidden", !text);
    if (text === tickerText) return;
    tickerText = text;
    var span = $("p-ticker-text");
    span.textContent = text;
    box.classList.remove("scrolling");
    if (text && span.scrollWidth > box.clientWidth) {
      box.classList.add("scrolling");
      span.style.animationDuration = Math.max(12, Math.round(text.length / 6)) + "s";
    }
  }

  var live = new DirectorLive.Live({
    eventsUrl: screen.dataset.events,
    apiUrl: screen.dataset.api,
    onState: render,
    onConnection: function (status) {
      $("p-connection").className = "p-connection " + status;
      $("p-connection").title = t(status);
    }
  });

  /* Money: entries, chips in play, the payouts paged to fit their box (a new page every
   * few seconds), and whether late registration, re-entry, rebuys and the add-on are open. */
  var moneyBox = $("p-money");
  var payoutItems = [];
  function renderMoney(state) {
    moneyBox.classList.toggle("hidden", state.entries === null || state.entries === undefined);
    $("p-entries").textContent = i18n.number(state.entries) || "—";
    $("p-chips").textContent = i18n.number(state.chips_in_play) || "—";
    var sat = state.satellite;
    if (sat) {        // a satellite: the seats as one line, then the remainder for the next place
      payoutItems = sat.seats ? [[(sat.seats > 1 ? "1–" + sat.seats : "1") + ".",
                                  s("seats", { amount: i18n.money(sat.seat_value, state.currency) })]] : [];
      if (sat.remainder_place) payoutItems.push([sat.remainder_place + ".", i18n.money(sat.remainder, state.currency)]);
    } else {
      payoutItems = (state.payouts || []).map(function (p) {
        return [p.place + ".", i18n.money(p.amount, state.currency)];
      });
    }
    // the seats decided: their winners, a name a line, take the payouts' box (one line
    // of 30 names ran over the column and off the screen)
    var winners = sat && sat.winners && sat.winners.length ? sat.winners : null;
    if (winners) payoutItems = winners.map(function (name) { return [null, name]; });
    $("p-payouts-label").textContent = winners ? s("seats_won_label") : $("p-payouts-label").dataset.payouts;
    showPayouts();
    var bounty = state.bounty;
    $("p-bounty").textContent = !bounty ? "" : bounty.kind === "pko"
      ? s("bounty_pko", { amount: i18n.money(bounty.amount, state.currency), total: i18n.money(bounty.in_play, state.currency) })
      : s("bounty_fixed", { amount: i18n.money(bounty.amount, state.currency) });
    var open = state.open || {};
    [["p-re-entry", "re_entry"], ["p-rebuy", "rebuy"], ["p-add-on", "add_on"]].forEach(function (pair) {
      var value = open[pair[1]];
      var node = $(pair[0]);
      node.textContent = value === null || value === undefined ? "" : s(pair[1] + (value ? "_open" : "_closed"));
      node.className = value ? "is-open" : "";
    });
  }
  var payoutsPager = new Pager($("p-payouts"), $("p-page"));
  function showPayouts() {
    payoutsPager.set(payoutItems.map(function (item) {
      if (item[0] === null) {                 // a name (a seat won)
        var won = el("li", "p-won");
        won.appendChild(el("span", "p-who", item[1]));
        return won;
      }
      var row = el("li");
      row.appendChild(el("span", "p-place", item[0]));
      row.appendChild(el("span", "p-amount", item[1]));
      return row;
    }));
  }
  setInterval(function () { payoutsPager.next(); resultsPager.next(); }, PAGE_MS);
  window.addEventListener("resize", function () { payoutsPager.show(); resultsPager.show(); });
  function tickLate() {
    var late = live.state ? live.state.late_registration : null;
    if (!late) { $("p-late").textContent = ""; return; }
    var left = late.seconds;
    if (late.open && late.closes_at) left = (Date.parse(late.closes_at) - live.serverNow()) / 1000;
    var text = moneyBox.dataset.lateClosed;
    if (late.open && (left === null || left === undefined)) text = moneyBox.dataset.lateOpen;
    else if (late.open && left > 0) text = moneyBox.dataset.lateText.replace("%(time)s", fmt(left));
    $("p-late").textContent = text;
    $("p-late").className = late.open ? "is-open" : "";
  }

  function tick() {
    var left = live.remaining();
    tickLate();
    var digits = fmt(left);
    $("p-time").textContent = digits;
    $("p-time").classList.toggle("long", digits.length > 5);
    var toBreak = live.toBreak();
    $("p-break").textContent = toBreak === null ? "—" : fmt(toBreak);
    var s = live.state;
    if (s && s.running && left !== null) {
      var key = s.level_index + "@" + s.ends_at;
      if (left <= 60 && left > 58 && !warned[key] && !(s.level && s.level.is_break)) {
        warned[key] = true;
        tone("minute");
      }
      document.body.classList.toggle("last-minute", left <= 60);
    } else {
      document.body.classList.remove("last-minute");
    }
  }

  /* The sound / full-screen button sits in the top bar (it covers nothing); it goes away
   * after the first click, and fades while the mouse rests. */
  $("p-sound").addEventListener("click", function () {
    ensureAudio();
    play([[660, 0, 0.15]]);
    var root = document.documentElement;
    if (root.requestFullscreen && !document.fullscreenElement) root.requestFullscreen().catch(function () {});
    $("p-sound").classList.add("hidden");
  });
  var idleTimer = null;
  function awake() {
    document.body.classList.remove("idle");
    clearTimeout(idleTimer);
    idleTimer = setTimeout(function () { document.body.classList.add("idle"); }, 8000);
  }
  ["mousemove", "touchstart", "keydown"].forEach(function (name) { document.addEventListener(name, awake, { passive: true }); });
  awake();
  document.addEventListener("keydown", function (e) {
    if (e.key === "f" && document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(function () {});
  });

  live.accept(JSON.parse($("initial-state").textContent));
  live.connect();
  /* A finished hand moves chips without a clock event (only the seating screens hear of
   * it): the chip leaders ask for the state again, at most every 3 seconds. */
  var listened = null, refetch = null;
  function followChips() {
    if (!live.source || live.source === listened) return;
    listened = live.source;
    listened.addEventListener("seating", function () {
      if (refetch) return;
      refetch = setTimeout(function () { refetch = null; live.fetchOnce(); }, 3000);
    });
  }
  followChips();
  setInterval(followChips, 5000);
  window.addEventListener("resize", function () { if (live.state) renderLeaders(live.state); });
  setInterval(tick, 200);
  window.directorProjector = live;   // for debugging from the console
})();
