/* The director's tournament page: clock controls (through the JSON API, with
 * the session and the CSRF token), the live clock panel, and the structure
 * table (add, copy, move, remove rows; start times recomputed as you type). */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var panel = $("clock-panel");
  var fmt = DirectorLive.formatSeconds;
  var i18n = DirectorLive.i18n, t = i18n.t;

  // ------------------------------------------------------------ clock panel
  var live = new DirectorLive.Live({
    eventsUrl: panel.dataset.events,
    apiUrl: panel.dataset.api,
    onState: function (state) {
      var level = state.level || {};
      $("panel-level").textContent = level.is_break ? t("break") : i18n.stakes(level);
      $("panel-level-name").textContent = level.is_break ? (level.note || "")
        : i18n.levelTitle(level) + t("separator") + i18n.gameName(level.game);
      var next = state.next_level;
      $("panel-next").textContent = next ? (next.is_break ? t("break") : i18n.stakes(next)) : "—";
      $("panel-status").textContent = state.running ? t("running") : (state.started ? t("paused_lower") : t("not_started_lower"));
      $("btn-start").hidden = state.started;
      $("btn-pause").hidden = !state.running;
      $("btn-resume").hidden = state.running || !state.started;
      document.querySelectorAll("#structure-table tbody tr").forEach(function (row, i) {
        row.classList.toggle("current", state.started && i === state.level_index);
      });
      tick();
    }
  });
  function tick() { $("panel-time").textContent = fmt(live.remaining()); }
  setInterval(tick, 250);
  live.connect();
  live.fetchOnce();

  /* A click on a clock control: one key a click, and the same request sent again with
   * it until the server answers (no answer, or a 5xx), so that a lost answer on the
   * room's Wi-Fi neither loses the click nor applies it twice (the server keeps the
   * key).  The button is disabled while its request is on its way, and a level's
   * Next / Previous for ARM_MS more once answered: on a fast network the answer comes
   * before a double click's second click, which must not skip a second level. */
  var ARM_MS = 600;
  function send(button, path, body) {
    if (button.disabled) return;
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    body = Object.assign({ idempotency_key: DirectorLive.requestKey() }, body || {});
    var error = $("control-error");
    error.classList.add("hidden");
    var answered = function () {
      button.removeAttribute("aria-busy");
      var arm = path === "next" || path === "previous";
      setTimeout(function () { button.disabled = false; }, arm ? ARM_MS : 0);
    };
    var attempt = function (delay) {
      fetch(panel.dataset.api + "/" + path, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": panel.dataset.csrf },
        body: JSON.stringify(body)
      }).then(function (response) {
        if (response.status >= 500) throw new Error("HTTP " + response.status);
        return response.json().catch(function () { return {}; }).then(function (data) {
          answered();
          error.classList.add("hidden");
          if (!response.ok) {
            var messages = data.errors ? Object.values(data.errors) : [data.error || response.statusText];
            error.textContent = messages.join(" ");
            error.classList.remove("hidden");
            return;
          }
          live.accept(data);
        });
      }).catch(function () {
        error.textContent = t("no_answer");
        error.classList.remove("hidden");
        setTimeout(function () { attempt(Math.min(delay * 2, 4000)); }, delay);
      });
    };
    attempt(500);
  }
  panel.querySelectorAll("[data-control]").forEach(function (button) {
    button.addEventListener("click", function () { send(button, button.dataset.control); });
  });
  panel.querySelectorAll("[data-adjust]").forEach(function (button) {
    button.addEventListener("click", function () {
      send(button, "adjust", { seconds: parseInt(button.dataset.adjust, 10) });
    });
  });

  // ------------------------------------------------------------ structure table
  var table = $("structure-table");
  if (!table) return;
  var body = table.tBodies[0];

  function parseDuration(text) {
    var parts = String(text).trim().split(":");
    if (!parts.every(function (p) { return /^\d+$/.test(p.trim()); }) || parts.length > 3) return null;
    var numbers = parts.map(Number);
    if (numbers.length === 1) return numbers[0] * 60;
    return numbers.reduce(function (acc, n) { return acc * 60 + n; }, 0);
  }

  function renumber() {
    var start = 0, number = 0, breaks = 0;
    Array.prototype.forEach.call(body.rows, function (row) {
      var isBreak = row.querySelector("select[name=kind]").value === "break";
      row.classList.toggle("is-break", isBreak);
      row.querySelector(".starts").textContent = start === null ? "?" : fmt(start);
      if (isBreak) breaks += 1; else number += 1;
      // levels and breaks are counted apart, as the error messages name them ("Break 2: ...")
      row.querySelector(".number").textContent = isBreak ? t("break") + " " + breaks : number;
      var duration = parseDuration(row.querySelector("input[name=duration]").value);
      start = (start === null || duration === null) ? null : start + duration;
    });
  }

  function blank(row, kind) {
    row.querySelectorAll("input").forEach(function (input) { input.value = ""; input.removeAttribute("aria-invalid"); });
    row.querySelector("select[name=kind]").value = kind;
    row.querySelector("select[name=big_blind_ante]").value = "no";
    row.querySelector("input[name=duration]").value = kind === "break" ? "15" : "20";
    row.classList.remove("current");
  }

  function addRow(kind) {
    var template = body.rows[body.rows.length - 1];
    var row = template.cloneNode(true);
    if (kind === "break") {
      blank(row, "break");
    } else if (template.querySelector("select[name=kind]").value === "break") {
      // copy the last playing level, so the new level has a game and stakes to edit
      var levels = Array.prototype.filter.call(body.rows, function (r) { return !r.classList.contains("is-break"); });
      if (levels.length) row = levels[levels.length - 1].cloneNode(true);
    }
    row.classList.remove("current");
    body.appendChild(row);
    renumber();
    var first = row.querySelector(kind === "break" ? "input[name=duration]" : "input[name=small_blind]");
    if (first) first.focus();
  }

  $("add-level").addEventListener("click", function () { addRow("level"); });
  $("add-break").addEventListener("click", function () { addRow("break"); });
  body.addEventListener("click", function (event) {
    var button = event.target.closest("[data-row]");
    if (!button) return;
    var row = button.closest("tr");
    var action = button.dataset.row;
    if (action === "up" && row.previousElementSibling) body.insertBefore(row, row.previousElementSibling);
    if (action === "down" && row.nextElementSibling) body.insertBefore(row.nextElementSibling, row);
    if (action === "copy") { var copy = row.cloneNode(true); copy.classList.remove("current"); row.after(copy); }
    if (action === "break") {           // insert a break between this row and the next
      var pause = row.cloneNode(true);
      blank(pause, "break");
      row.after(pause);
      renumber();
      pause.querySelector("input[name=duration]").focus();
      return;
    }
    if (action === "remove" && body.rows.length > 1) row.remove();
    renumber();
  });
  body.addEventListener("input", renumber);
  body.addEventListener("change", renumber);
  renumber();
})();
