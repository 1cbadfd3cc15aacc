/* Money pages: print the seat ticket or the house summary; focus the name field at the desk;
 * ask before a form with data-confirm is sent (the ledger's Undo, reopen/cancel the event). */
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
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  });
  var name = document.getElementById("desk-name");
  if (name && !document.getElementById("desk-errors")) name.focus();
})();
