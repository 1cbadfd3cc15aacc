/* The room screen (issue 17): one column per running tournament, each following its
 * own event stream (DirectorLive.Live) and counting down on this screen's clock. */
(function () {
  "use strict";
  var i18n = DirectorLive.i18n, t = i18n.t, fmt = DirectorLive.formatSeconds;
  var columns = [];
  function q(column, cls) { return column.querySelector("." + cls); }

  function render(column, state) {
    var level = state.level || {};
    column.classList.toggle("on-break", !!level.is_break);
    q(column, "room-name").textContent = state.name || "";
    q(column, "room-level-number").textContent = i18n.levelTitle(level);
    q(column, "room-game").textContent = level.is_break ? "" : i18n.gameName(level.game);
    var stakes = q(column, "room-stakes");
    stakes.textContent = "";
    if (!level.is_break) {
      i18n.renderStakes(stakes, level);
      Array.prototype.slice.call(stakes.childNodes).forEach(function (node) {
        if (node.nodeType === 3) stakes.removeChild(node);     // one stake a line
      });
    }
    q(column, "room-status").textContent = state.running ? "" : (state.started ? t("paused") : t("not_started"));
    q(column, "room-players-value").textContent = i18n.number(state.players_left);
  }

  Array.prototype.forEach.call(document.querySelectorAll(".room-column"), function (column) {
    var live = new DirectorLive.Live({
      eventsUrl: column.dataset.events,
      apiUrl: column.dataset.api,
      onState: function (state) { render(column, state); },
      onConnection: function (status) {
        q(column, "room-connection").className = "room-connection p-connection " + status;
      }
    });
    columns.push([column, live]);
    live.accept(JSON.parse(q(column, "room-state").textContent));
    live.connect();
  });

  function tick() {
    columns.forEach(function (pair) {
      var left = pair[1].remaining();
      q(pair[0], "room-time").textContent = fmt(left);
      pair[0].classList.toggle("last-minute", !!(pair[1].state && pair[1].state.running && left !== null && left <= 60));
    });
  }
  setInterval(tick, 250);
  tick();
})();
