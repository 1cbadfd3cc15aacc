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

  Live.prototype.connect = function () {
    var self = this;
    if (!global.EventSource) { this.poll(); return; }
    var source = new EventSource(this.eventsUrl);
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
        setTimeout(function () { self.stopPolling(); self.connect(); }, 30000);
      } else {
        self.onConnection("reconnecting");
      }
    };
    // Heal a missed event: if the level should have ended 2 s ago, ask the server.
    setInterval(function () {
      var left = self.remaining();
      if (self.state && self.state.running && left !== null && left < -2) self.fetchOnce();
    }, 2000);
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

  global.DirectorLive = { Live: Live, formatSeconds: formatSeconds };
})(window);
