// An individual event's settings form: the settings of the chosen system only, and the rules'
// tie-breaks of that system.
import { showBySystem } from "./settings-systems.js";

const form = document.getElementById("event-settings");
const system = form.elements["system"];
showBySystem(form);
// With the rules' tie-breaks ticked, the choices show those of the system and cannot change.
const useDefault = form.elements["tiebreaks_default"];
const method = form.elements["swiss_method"];
const losses = form.elements["elimination_losses"];
// the server's defaults (tournament.settings.default_tiebreaks), by system/method/losses
const defaults = JSON.parse(document.getElementById("default-tiebreaks").textContent);
function tiebreaks() {
  const key = system.value + "/" + method.value + "/";
  const codes = defaults[key + losses.value.trim()] || defaults[key] || [];
  for (let i = 1; i <= 5; i++) {
    const select = form.elements["tiebreak_" + i];
    if (useDefault.checked) { select.value = codes[i - 1] || ""; }
    select.disabled = useDefault.checked;
  }
}
system.addEventListener("change", tiebreaks);
method.addEventListener("change", tiebreaks);
losses.addEventListener("input", tiebreaks);
useDefault.addEventListener("change", tiebreaks);
tiebreaks();
const invalid = form.querySelector("label.invalid input, label.invalid select");
if (invalid) { invalid.focus(); }
