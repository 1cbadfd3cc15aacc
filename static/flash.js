/* A form that comes back to a part of its page (the address ends in #that-part: the
 * chart, the ledger, the waiting list) shows what it did there, where the page opens,
 * not at the top of the page out of view. */
(function () {
  "use strict";
  var said = document.querySelectorAll("main > p.flash");
  var id = decodeURIComponent(window.location.hash.slice(1));
  var part = id ? document.getElementById(id) : null;
  if (!said.length || !part || part.tagName === "MAIN") { return; }
  // the part's own title: a heading, or the row holding it
  var heading = Array.prototype.find.call(part.children, function (child) {
    return /^H[1-4]$/.test(child.tagName) || child.querySelector("h1, h2, h3, h4") !== null;
  });
  var place = heading ? heading.nextSibling : part.firstChild;
  Array.prototype.forEach.call(said, function (p) { part.insertBefore(p, place); });
  part.scrollIntoView({block: "start"});
})();
