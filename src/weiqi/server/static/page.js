// Small behaviours of every page, kept out of the markup so that the Content-Security-Policy can
// forbid inline script: print buttons, confirmations before a form is sent, selects that submit.

// A form's answer (a refusal with its errors) is shown at the page's own address, not the
// form's POST address: a reload then asks for the page (no re-POST, no 405), the typed input
// being still on screen until then.
const address = document.querySelector('meta[name="page-address"]')?.content;
if (address) {
  window.history.replaceState(window.history.state, "", address + window.location.hash);
}
for (const button of document.querySelectorAll("[data-print]")) {
  button.addEventListener("click", () => window.print());
}

// A form with data-confirm asks its question first; the submission stops unless it is accepted.
document.addEventListener("submit", (event) => {
  const form = event.target;
  const question = form instanceof HTMLFormElement ? form.dataset.confirm : undefined;
  if (question && !window.confirm(question)) {
    event.preventDefault();
    event.stopImmediatePropagation();
  }
}, true);

for (const select of document.querySelectorAll("select[data-autosubmit]")) {
  select.addEventListener("change", () => select.form?.submit());
}

// A new event's time zone left empty (a page that is not Chinese) starts as the browser's.
for (const zone of document.querySelectorAll("input[data-browser-zone]")) {
  if (!zone.value) {
    try { zone.value = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { /* keep empty */ }
  }
}
