/* Live clock state for every screen: one EventSource per page, with
 * - the server offset (server_time - local time) so each screen counts down
 *   from its own clock to the absolute ends_at;
 * - automatic reconnect (the server sends the full state first, so a screen
 *   that reconnects recovers everything);
 * - a polling fallback when the server has no stream slot left (503) or the
 *   browser has no EventSource.
 */
(function (global) {
  "use strict";

  function parseTime(iso) { return iso ? Date.parse(iso) : null; }

  function formatSeconds(seconds) {
    if (seconds === null || seconds === undefined || isNaN(seconds)) return "—";
    var s = Math.max(0, Math.ceil(seconds - 1e-6));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    var mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(r).padStart(2, "0");
  }

  function Live(options) {
    this.eventsUrl = options.eventsUrl;
    this.apiUrl = options.apiUrl;
    this.onState = options.onState || function () {};
    this.onConnection = options.onConnection || function () {};
    this.state = null;
    this.offset = 0;            // server clock minus local clock, in ms
    this.source = null;
    this.pollTimer = null;
  }

  Live.prototype.accept = function (state) {
    if (!state) return;
    if (this.state && typeof state.version === "number" && typeof this.state.version === "number"
        && state.version < this.state.version) return;          // an older event, out of order
    var server = parseTime(state.server_time);
    if (server) this.offset = server - Date.now();
    this.state = state;
    this.onState(state);
  };

  Live.prototype.serverNow = function () { return Date.now() + this.offset; };

  /* Seconds left in the current level, as of now on this screen. */
  Live.prototype.remaining = function () {
    var s = this.state;
    if (!s) return null;
    if (s.running && s.ends_at) return (parseTime(s.ends_at) - this.serverNow()) / 1000;
    return s.seconds_remaining;
  };

  /* Seconds to the next break, as of now on this screen. */
  Live.prototype.toBreak = function () {
    var s = this.state;
    if (!s || s.seconds_to_break === null || s.seconds_to_break === undefined) return null;
    if (s.running && s.break_at) return (parseTime(s.break_at) - this.serverNow()) / 1000;
    return s.seconds_to_break;
  };

  /* Open the page's event stream at ``url`` and hand the EventSource to ``setup``.  The
   * stream is on the page's own origin: the server holds it without a thread
   * (director.streams), so there is no other port to try. */
  function openStream(url, setup) {
    setup(new EventSource(url));
  }

  Live.prototype.connect = function () {
    var self = this;
    if (!global.EventSource) { this.poll(); return; }
    openStream(this.eventsUrl, function (source) { self.listen(source); });
    // Heal a missed event: if the level should have ended 2 s ago, ask the server.
    setInterval(function () {
      var left = self.remaining();
      if (self.state && self.state.running && left !== null && left < -2) self.fetchOnce();
    }, 2000);
  };

  Live.prototype.listen = function (source) {
    var self = this;
    this.source = source;
    source.addEventListener("clock", function (event) {
      try { self.accept(JSON.parse(event.data)); } catch (e) { /* ignore a bad event */ }
      self.onConnection("live");
    });
    source.onopen = function () { self.onConnection("live"); };
    source.onerror = function () {
      if (source.readyState === EventSource.CLOSED) {
        // The server refused the stream (e.g. 503: all slots in use): poll, retry later.
        self.onConnection("polling");
        self.poll();
        setTimeout(function () {
          if (self.source === source) { self.stopPolling(); self.connect(); }
        }, 30000);
      } else {
        self.onConnection("reconnecting");
      }
    };
  };

  Live.prototype.fetchOnce = function () {
    var self = this;
    return fetch(this.apiUrl, { cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (state) { self.accept(state); })
      .catch(function () { self.onConnection("offline"); });
  };

  Live.prototype.poll = function () {
    var self = this;
    if (this.pollTimer) return;
    this.fetchOnce();
    this.pollTimer = setInterval(function () { self.fetchOnce(); }, 2000);
  };

  Live.prototype.stopPolling = function () {
    if (this.pollTimer) { clearInterval(this.pollTimer); this.pollTimer = null; }
  };

  /* The page's language: translated sentences from <script type="application/json" id="i18n">
   * (written by the server, see templates/_i18n_json.html), numbers per locale with Intl. */
  var ENGLISH = {   // used only on a page without the #i18n block
    level: "Level %(number)s", "break": "Break", blinds: "Blinds %(small)s/%(big)s",
    ante: "Ante %(ante)s", bb_ante: "Big-blind ante %(ante)s", limits: "Limits %(small)s/%(big)s",
    bring_in: "Bring-in %(amount)s", separator: " · ", paused: "Paused", not_started: "Not started",
    running: "running", paused_lower: "paused", not_started_lower: "not started",
    no_answer: "No answer from the server yet: sending it again…",
    live: "Live connection", reconnecting: "Reconnecting…", polling: "Updating every 2 seconds",
    offline: "No connection to the server"
  };
  var i18nData = { locale: document.documentElement.lang || "en", currency: "EUR", strings: ENGLISH, games: {} };
  var i18nNode = document.getElementById("i18n");
  if (i18nNode) {
    try { i18nData = JSON.parse(i18nNode.textContent); } catch (e) { /* keep the defaults */ }
  }
  var numberFormat = new Intl.NumberFormat(i18nData.locale || undefined, { maximumFractionDigits: 2 });
  var moneyFormats = {};
  function moneyFormat(currency) {
    var code = currency || i18nData.currency || "EUR";
    if (!moneyFormats[code]) {
      try {
        moneyFormats[code] = new Intl.NumberFormat(i18nData.locale || undefined, { style: "currency", currency: code });
      } catch (e) { moneyFormats[code] = numberFormat; }
    }
    return moneyFormats[code];
  }

  /* A sentence by key with %(name)s placeholders filled in. */
  function t(key, params) {
    var text = i18nData.strings[key];
    if (text === undefined) text = key;
    return text.replace(/%\((\w+)\)s/g, function (all, name) {
      return params && params[name] !== undefined ? String(params[name]) : all;
    });
  }
  function formatNumber(value) {
    if (value === null || value === undefined || value === "") return "";
    return numberFormat.format(value);
  }
  /* An amount in the currency's major unit: sv "12 500,00 kr", en "€12,500.00". */
  function formatMoney(value, currency) {
    if (value === null || value === undefined || value === "") return "";
    return moneyFormat(currency).format(value);
  }
  var SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
  /* A card in the page's letters: "Jh" -> sv "Kn♥", id "J♥"; "As" -> sv "E♠", id "As♠". */
  function card(code) {
    if (!code || code.length < 2) return code || "";
    var rank = code.slice(0, -1).toUpperCase(), suit = code.slice(-1).toLowerCase();
    if (rank === "10") rank = "T";
    return ((i18nData.ranks || {})[rank] || rank) + (SUITS[suit] || suit);
  }
  /* The rank letters ace first, as [standard, local] pairs, for a card picker. */
  function ranks() {
    var labels = i18nData.ranks || {};
    return "AKQJT98765432".split("").map(function (r) { return [r, labels[r] || r]; });
  }
  function gameName(code) { return code ? (i18nData.games[code] || code) : ""; }
  function levelTitle(level) {
    if (!level) return "";
    return level.is_break ? t("break") : t("level", { number: level.level_number });
  }
  /* The stakes as director.i18n.stakes_parts composes them on the server. */
  function stakeParts(level) {
    if (!level) return [];
    if (level.is_break) return [t("break")];
    var n = formatNumber, game = level.game || "", parts = [];
    var limits = t("limits", { small: n(level.small_bet || 0), big: n(level.big_bet || 0) });
    if (game.indexOf("7S") !== -1) {
      parts.push(t("ante", { ante: n(level.ante || 0) }));
      parts.push(t("bring_in", { amount: n(level.bring_in || 0) }));
      parts.push(limits);
      return parts;
    }
    if (game.charAt(0) === "F") parts.push(limits);
    parts.push(t("blinds", { small: n(level.small_blind || 0), big: n(level.big_blind || 0) }));
    if (level.ante) parts.push(t(level.big_blind_ante ? "bb_ante" : "ante", { ante: n(level.ante) }));
    return parts;
  }
  function stakes(level) { return stakeParts(level).join(t("separator")); }
  /* Fill an element with the stakes, each part unbreakable (<span class="stake">). */
  function renderStakes(element, level) {
    element.textContent = "";
    stakeParts(level).forEach(function (part, i) {
      if (i) element.appendChild(document.createTextNode(t("separator")));
      var span = document.createElement("span");
      span.className = "stake";
      span.textContent = part;
      element.appendChild(span);
    });
  }

  /* A write's idempotency key: one per tap or click, sent again with the write until
   * the server answers, which applies it once (the dealer's tablet, the clock buttons). */
  function requestKey() {
    var words = new Uint32Array(4), r = "";
    var source = global.crypto;     // on plain HTTP too (randomUUID needs HTTPS)
    if (source && source.getRandomValues) source.getRandomValues(words);
    else for (var j = 0; j < 4; j++) words[j] = Math.floor(Math.random() * 0x100000000);
    for (var i = 0; i < 4; i++) r += ("0000000" + words[i].toString(16)).slice(-8);
    return Date.now().toString(16) + "-" + r;
  }

  /* Whether a stream's "seating" event says only chips moved (a hand elsewhere that busted
   * nobody: ``seats_changed`` false), so that no seat was taken or freed. */
  function onlyChipsMoved(event) {
    try { return JSON.parse(event.data).seats_changed === false; } catch (e) { return false; }
  }

  global.DirectorLive = {
    Live: Live, formatSeconds: formatSeconds, openStream: openStream, requestKey: requestKey,
    onlyChipsMoved: onlyChipsMoved,
    i18n: { locale: i18nData.locale, t: t, number: formatNumber, money: formatMoney,
            gameName: gameName, levelTitle: levelTitle, stakes: stakes, card: card, ranks: ranks,
            renderStakes: renderStakes }
  };
})(window);
