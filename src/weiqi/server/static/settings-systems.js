// Show a settings form's fields only with the systems that read them: each wrapper's
// data-systems lists them, from the server's one table (tournament.settings.SYSTEM_SETTINGS).
// Without script every setting stays visible.
export function showBySystem(form) {
  const system = form.elements["system"];
  const update = () => {
    form.querySelectorAll("[data-systems]").forEach((el) => {
      el.hidden = !el.dataset.systems.split(" ").includes(system.value);
    });
  };
  system.addEventListener("change", update);
  update();
}

const team = document.getElementById("team-event-settings");
if (team) {
  showBySystem(team);
}
