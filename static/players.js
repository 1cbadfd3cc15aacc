/* The registration desk: while a name is typed, suggest the player list's records that match
 * (GET data-suggest?q=...).  Picking one fills the name and the hidden person_id, so the buy-in
 * is his (two similar names are told apart); typing again forgets it.  Without this script the
 * desk still links an exact name to its record on the server. */
(function () {
  "use strict";
  var input = document.getElementById("desk-name");
  var person = document.getElementById("desk-person");
  if (!input || !person || !input.dataset.suggest || !window.fetch) return;
  // The list goes under the form, in the page's flow: it pushes the rest down instead of
  // covering it (on a phone the form wraps over several lines).
  var form = input.form;
  var list = document.createElement("ul");
  list.id = "desk-suggestions";
  list.className = "suggestions";
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-label", input.dataset.listLabel || "");
  list.hidden = true;
  form.parentNode.insertBefore(list, form.nextSibling);
  var badge = document.createElement("span");
  badge.id = "desk-returning";
  badge.className = "returning";
  badge.hidden = true;
  input.parentNode.insertBefore(badge, input.nextSibling);
  input.setAttribute("aria-controls", list.id);
  input.setAttribute("aria-autocomplete", "list");
  var timer = null, asked = 0, chosen = -1;

  function close() { list.hidden = true; list.textContent = ""; chosen = -1; }
  function mark(text) { badge.textContent = text; badge.hidden = !text; }

  function pick(record) {
    input.value = record.name;
    person.value = String(record.id);
    mark(badge.dataset.label ? badge.dataset.label.replace("{name}", record.name) : "✓");
    close();
    input.focus();
  }

  function show(records) {
    list.textContent = "";
    chosen = -1;
    records.forEach(function (record) {
      var item = document.createElement("li");
      var button = document.createElement("button");
      button.type = "button";
      button.setAttribute("role", "option");
      button.dataset.person = String(record.id);
      button.appendChild(document.createTextNode(record.name + " "));
      var more = document.createElement("span");
      more.className = "muted";
      more.textContent = (record.nickname ? "“" + record.nickname + "” " : "") + "#" + record.id;
      button.appendChild(more);
      button.addEventListener("mousedown", function (event) { event.preventDefault(); });
      button.addEventListener("click", function () { pick(record); });
      item.appendChild(button);
      list.appendChild(item);
    });
    list.hidden = records.length === 0;
  }

  function ask() {
    var text = input.value.trim();
    if (text.length < 2) { close(); return; }
    var mine = ++asked;
    fetch(input.dataset.suggest + "?q=" + encodeURIComponent(text), {credentials: "same-origin"})
      .then(function (response) { return response.ok ? response.json() : {players: []}; })
      .then(function (data) { if (mine === asked) show(data.players || []); })
      .catch(function () { close(); });
  }

  function move(step) {
    var buttons = list.querySelectorAll("button");
    if (!buttons.length) return;
    chosen = (chosen + step + buttons.length) % buttons.length;
    buttons.forEach(function (b, i) { b.setAttribute("aria-selected", i === chosen ? "true" : "false"); });
  }

  badge.dataset.label = input.dataset.returning || "";
  input.addEventListener("input", function () {
    person.value = "";
    mark("");
    clearTimeout(timer);
    timer = setTimeout(ask, 150);
  });
  input.addEventListener("keydown", function (event) {
    if (list.hidden) return;
    if (event.key === "ArrowDown") { event.preventDefault(); move(1); }
    else if (event.key === "ArrowUp") { event.preventDefault(); move(-1); }
    else if (event.key === "Escape") { close(); }
    else if (event.key === "Enter" && chosen >= 0) {
      event.preventDefault();
      list.querySelectorAll("button")[chosen].click();
    }
  });
  input.addEventListener("blur", function () { setTimeout(close, 150); });
})();
