/* Keep the screen awake (issue 30): the projector, the room screen and the dealer tablets
 * ask the browser for a screen wake lock, ask again when the page is shown again (the
 * browser lets the lock go when the page is hidden) and after the first tap (some
 * browsers want one), and say so when the browser refuses or cannot (it needs https or
 * localhost): the element [data-wake-lock] shows its short text, its title the reason.
 * <html data-wake-lock="on|refused|unsupported"> tells the tests what happened. */
(function () {
  "use strict";
  var note = document.querySelector(".wake-lock-note[data-wake-lock]");
  var lock = null;

  function say(state, reason) {
    document.documentElement.setAttribute("data-wake-lock", state);
    if (!note) return;
    note.hidden = state === "on";
    if (state !== "on") {
      note.title = (state === "unsupported" ? note.dataset.unsupported : note.dataset.refused) +
        (reason ? " (" + reason + ")" : "");
    }
  }

  function ask() {
    if (!("wakeLock" in navigator) || !navigator.wakeLock || !navigator.wakeLock.request) {
      say("unsupported");
      return;
    }
    if (lock && !lock.released) return;
    navigator.wakeLock.request("screen").then(function (got) {
      lock = got;
      say("on");
      got.addEventListener("release", function () {
        if (document.visibilityState === "visible") ask();   // let go for a reason of its own
      });
    }).catch(function (error) {
      say("refused", error && error.name);
    });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") ask();
  });
  document.addEventListener("click", ask, { once: true });
  ask();
}());
