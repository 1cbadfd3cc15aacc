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

  function render(state) {
    var level = state.level || {};
    document.body.classList.toggle("on-break", !!level.is_break);
    document.body.classList.toggle("paused", !state.running);
    $("p-name").textContent = state.name || "";
    $("p-level-number").textContent = levelTitle(level);
    $("p-game").textContent = level.is_break ? "" : i18n.gameName(level.game);
    i18n.renderStakes($("p-stakes"), level.is_break ? null : level);
    $("p-break-note").textContent = level.is_break ? (level.note || "") : "";
    var next = state.next_level;
    $("p-next").textContent = next ? (next.is_break ? t("break") : levelTitle(next) + t("separator") + i18n.stakes(next)) : "—";
    $("p-status").textContent = state.running ? "" : (state.started ? t("paused") : t("not_started"));
    $("p-players").textContent = i18n.number(state.players_left);
    $("p-average").textContent = i18n.number(state.average_stack);
    $("p-prize").textContent = i18n.money(state.prize_pool, state.currency);
    renderMoney(state);
    screen.dataset.levelIndex = state.level_index;
    if (lastIndex !== null && state.level_index !== lastIndex) {
      tone(level.is_break ? "break" : "level");
    }
    lastIndex = state.level_index;
    lastVersion = state.version;
    tick();
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

  /* Money (issue 6): entries, chips in play, the payout ticker and the late-registration
   * countdown; the sentences come from the page's data- attributes. */
  var moneyBox = $("p-money");
  function renderMoney(state) {
    if (!moneyBox) return;
    moneyBox.classList.toggle("hidden", state.entries === null || state.entries === undefined);
    $("p-entries").textContent = i18n.number(state.entries);
    $("p-chips").textContent = i18n.number(state.chips_in_play);
    $("p-ticker").textContent = (state.payouts || []).map(function (p) {
      return p.place + ". " + i18n.money(p.amount, state.currency);
    }).join("   ·   ");
    var track = $("p-ticker");
    track.classList.remove("scrolling");       /* scroll only what does not fit */
    if (track.scrollWidth > track.parentNode.clientWidth) track.classList.add("scrolling");
  }
  function tickLate() {
    var late = moneyBox && live.state ? live.state.late_registration : null;
    if (!moneyBox) return;
    if (!late) { $("p-late").textContent = ""; return; }
    var left = late.seconds;
    if (late.open && late.closes_at) left = (Date.parse(late.closes_at) - live.serverNow()) / 1000;
    var text = moneyBox.dataset.lateClosed;
    if (late.open && (left === null || left === undefined)) text = moneyBox.dataset.lateOpen;
    else if (late.open && left > 0) text = moneyBox.dataset.lateText.replace("%(time)s", fmt(left));
    $("p-late").textContent = text;
  }

  function tick() {
    var left = live.remaining();
    tickLate();
    $("p-time").textContent = fmt(left);
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

  $("p-sound").addEventListener("click", function () {
    ensureAudio();
    play([[660, 0, 0.15]]);
    var el = document.documentElement;
    if (el.requestFullscreen && !document.fullscreenElement) el.requestFullscreen().catch(function () {});
    $("p-sound").classList.add("hidden");
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "f" && document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(function () {});
  });

  live.accept(JSON.parse($("initial-state").textContent));
  live.connect();
  setInterval(tick, 200);
  window.directorProjector = live;   // for debugging from the console
})();
