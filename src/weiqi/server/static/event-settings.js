// Show only the settings of the chosen system (without script every setting stays visible).
var form = document.getElementById("event-settings");
var system = form.elements["system"];
function family(value) {
  return value === "double-round-robin" ? ["round-robin", value] : [value];
}
function update() {
  var mine = family(system.value);
  form.querySelectorAll("[data-systems]").forEach(function (el) {
    var shown = el.dataset.systems.split(" ").some(function (s) { return mine.indexOf(s) >= 0; });
    el.hidden = !shown;
  });
}
// With the rules' tie-breaks ticked, the choices show those of the system and cannot change.
var useDefault = form.elements["tiebreaks_default"];
var method = form.elements["swiss_method"];
var swissFamily = ["swiss", "swiss-knockout", "mcmahon"];
function tiebreaks() {
  var codes = swissFamily.indexOf(system.value) >= 0
    ? (method.value === "A" ? ["TOTAL", "WARN"] : ["SOS", "WARN"]) : ["SB", "WARN"];
  for (var i = 1; i <= 5; i++) {
    var select = form.elements["tiebreak_" + i];
    if (useDefault.checked) { select.value = codes[i - 1] || ""; }
    select.disabled = useDefault.checked;
  }
}
system.addEventListener("change", function () { update(); tiebreaks(); });
method.addEventListener("change", tiebreaks);
useDefault.addEventListener("change", tiebreaks);
update();
tiebreaks();
var invalid = form.querySelector("label.invalid input, label.invalid select");
if (invalid) { invalid.focus(); }
