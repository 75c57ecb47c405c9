// Progressive enhancement only: every page works without this file.
document.addEventListener("click", (event) => {
  const button = event.target.closest("button.copy");
  if (!button || !navigator.clipboard) return;
  navigator.clipboard.writeText(button.dataset.copy).then(() => {
    button.dataset.label = button.dataset.label || button.textContent;
    button.textContent = "✓";
    setTimeout(() => { button.textContent = button.dataset.label; }, 1500);
  });
});
