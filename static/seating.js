/* Seating screens: print buttons, the chart's long names, the "find my seat" search, the
 * projector's draw. */
(function () {
  "use strict";

  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });

  /* The seating chart: a long name is narrowed to its seat's plate (its glyphs squeezed),
   * never written past the plate's edge; the whole name is the seat's title. */
  var PLATE_TEXT = 92;      // the plate is 100 wide in the chart's own units
  document.querySelectorAll("svg.table-chart text.name").forEach(function (name) {
    if (name.getComputedTextLength() > PLATE_TEXT) {
      name.setAttribute("textLength", String(PLATE_TEXT));
      name.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  });

  /* Find my seat: the server searches (a small JSON answer), the page never holds the field. */
  var find = document.getElementById("find");
  if (find) {
    var input = document.getElementById("q");
    var list = document.getElementById("results");
    var status = document.getElementById("find-status");
    var error = document.getElementById("find-error");
    var timer = null;
    var t = find.dataset;
    var latest = 0;

    function show(data) {
      list.textContent = "";
      data.matches.forEach(function (m) {
        var li = document.createElement("li");
        var who = document.createElement("span");
        who.className = "who";
        who.textContent = m.name;
        var where = document.createElement("span");
        where.className = "where";
        where.append(t.tTable + " ");
        var tb = document.createElement("b"); tb.textContent = m.table; where.append(tb);
        where.append(" · " + t.tSeat + " ");
        var s = document.createElement("b"); s.textContent = m.seat; where.append(s);
        li.append(who, where);
        if (m.waiting) {
          var w = document.createElement("span");
          w.className = "wait";
          w.textContent = t.tWait;
          li.append(w);
        }
        list.append(li);
      });
      if (data.query.trim() && !data.total) {
        status.textContent = t.tNobody.replace("{query}", data.query);
      } else if (data.total > data.matches.length) {
        status.textContent = t.tMore.replace("{count}", data.total.toLocaleString(document.documentElement.lang || undefined));
      } else {
        status.textContent = "";
      }
    }

    function search() {
      var q = input.value;
      var ticket = ++latest;
      fetch(find.dataset.api + "?q=" + encodeURIComponent(q), {headers: {Accept: "application/json"}})
        .then(function (r) { return r.json().then(function (body) { return [r.ok, body]; }); })
        .then(function (pair) {
          if (ticket !== latest) return;            // an older answer arrived late
          if (!pair[0]) {
            error.textContent = (pair[1].errors && pair[1].errors.q) || pair[1].error;
            error.classList.remove("hidden");
            return;
          }
          error.classList.add("hidden");
          show(pair[1]);
          var url = new URL(window.location.href);
          if (q) { url.searchParams.set("q", q); } else { url.searchParams.delete("q"); }
          window.history.replaceState(null, "", url);
        })
        .catch(function () {
          if (ticket !== latest) return;
          error.textContent = t.tOffline;
          error.classList.remove("hidden");
        });
    }

    input.addEventListener("input", function () {
      window.clearTimeout(timer);
      timer = window.setTimeout(search, 150);
    });
    find.querySelector("form").addEventListener("submit", function (event) {
      event.preventDefault();
      window.clearTimeout(timer);
      search();
    });
  }

  /* The projector's draw: reload when the seating changes, scroll when it does not fit. */
  var screen = document.getElementById("draw-screen");
  if (screen) {
    if (window.EventSource) {
      var reload = null;
      window.DirectorLive.openStream(screen.dataset.events, function (source) {
        source.addEventListener("open", function () { screen.dataset.live = "1"; });
        source.addEventListener("error", function () { screen.dataset.live = "0"; });
        source.addEventListener("seating", function () {
          window.clearTimeout(reload);
          reload = window.setTimeout(function () { window.location.reload(); }, 300);
        });
      });
    }
    var tables = document.getElementById("draw-tables");
    if (tables) {
      var pause = 0;
      window.setInterval(function () {
        if (tables.scrollHeight <= tables.clientHeight + 2) return;
        if (pause > 0) { pause -= 1; return; }
        if (tables.scrollTop + tables.clientHeight >= tables.scrollHeight - 1) {
          tables.scrollTop = 0;
          pause = 60;
        } else {
          tables.scrollTop += 2;
          if (tables.scrollTop + tables.clientHeight >= tables.scrollHeight - 1) pause = 60;
        }
      }, 50);
    }
  }
})();
