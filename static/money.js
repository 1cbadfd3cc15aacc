/* Money pages: print the seat ticket or the house summary; focus the name field at the desk. */
(function () {
  "use strict";
  function printWith(cls) {
    document.body.classList.add(cls);
    window.print();
    setTimeout(function () { document.body.classList.remove(cls); }, 500);
  }
  var ticket = document.getElementById("print-ticket");
  if (ticket) ticket.addEventListener("click", function () { printWith("printing-ticket"); });
  var page = document.getElementById("print-page");
  if (page) page.addEventListener("click", function () { window.print(); });
  var name = document.getElementById("desk-name");
  if (name && !document.getElementById("desk-errors")) name.focus();
})();
