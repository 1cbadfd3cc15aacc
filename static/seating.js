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

  /* The projector's draw: loaded again when someone takes or leaves a seat (not when a
   * hand only moved chips).  The names fill the screen's columns; more names than it
   * holds go on in columns past its right edge, shown a page (a screen of columns) at a
   * time, the page's first and last name in the header.  Loaded again, it stays on its
   * page and its page's time: at a big event seats change every few seconds. */
  var screen = document.getElementById("draw-screen");
  if (screen) {
    var list = document.getElementById("draw-tables");
    var pager = document.getElementById("draw-page");
    var KEPT = "director-draw-page-" + window.location.pathname;
    var PAGE_MS = 12000;
    // the page shown and since when: loaded again, the page keeps its time (a late entry
    // every few seconds would otherwise hold the draw on one page)
    var page = 0, since = Date.now();
    try {
      var kept = JSON.parse(window.sessionStorage.getItem(KEPT) || "{}");
      window.sessionStorage.removeItem(KEPT);
      if (typeof kept.page === "number" && typeof kept.since === "number" && kept.since <= since) {
        page = kept.page;
        since = kept.since;
      }
    } catch (e) { page = 0; }
    var show = function () {
      // a page: the box's width and one gap between columns (the next page's first
      // column starts a gap past the box's right edge)
      var gap = parseFloat(window.getComputedStyle(list).columnGap) || 0;
      var step = list.clientWidth + gap;
      var count = Math.max(1, Math.ceil((list.scrollWidth + gap) / step - 0.02));
      page = page % count;
      list.scrollLeft = Math.round(page * step);
      pager.hidden = count < 2;
      if (count < 2) return;
      var box = list.getBoundingClientRect(), first = null, last = null;
      Array.prototype.forEach.call(list.children, function (li) {
        var r = li.getBoundingClientRect();
        if (r.left >= box.left - 1 && r.right <= box.right + 1) {
          first = first || li;
          last = li;
        }
      });
      pager.querySelector(".draw-page-of").textContent =
        screen.dataset.page.replace("%(page)s", page + 1).replace("%(pages)s", count);
      pager.querySelector(".draw-page-names").textContent = first && last
        ? "· " + first.querySelector(".n").textContent + " – " + last.querySelector(".n").textContent : "";
    };
    if (list) {
      show();
      window.setInterval(function () {
        if (Date.now() - since < PAGE_MS) return;
        page += 1;
        since = Date.now();
        show();
      }, 500);
      window.addEventListener("resize", show);
    }
    if (window.EventSource) {
      var reload = null;
      window.DirectorLive.openStream(screen.dataset.events, function (source) {
        source.addEventListener("open", function () { screen.dataset.live = "1"; });
        source.addEventListener("error", function () { screen.dataset.live = "0"; });
        source.addEventListener("seating", function (event) {
          if (window.DirectorLive.onlyChipsMoved(event)) return;    // every seat kept
          window.clearTimeout(reload);
          reload = window.setTimeout(function () {
            try {
              window.sessionStorage.setItem(KEPT, JSON.stringify({page: page, since: since}));
            } catch (e) { /* not kept: it starts on the first page */ }
            window.location.reload();
          }, 300);
        });
      });
    }
  }
})();
