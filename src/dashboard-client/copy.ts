/** Buttons with data-copy="<element id>" copy that element's text and say so (to screen readers too). */
export function enhanceCopyButtons(root: Document): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>("button[data-copy]")) {
    const label = button.textContent ?? "Copy";
    button.addEventListener("click", async () => {
      const source = root.getElementById(button.dataset.copy ?? "");
      if (!source) return;
      const text = source.textContent ?? "";
      let copied = false;
      try {
        await navigator.clipboard.writeText(text);
        copied = true;
      } catch {
        // No clipboard permission (plain HTTP, or denied): select the text so Ctrl+C copies it.
        const range = root.createRange();
        range.selectNodeContents(source);
        const selection = window.getSelection();
        selection?.removeAllRanges();
        selection?.addRange(range);
      }
      button.textContent = copied ? "Copied" : "Selected: press Ctrl+C";
      button.setAttribute("aria-live", "polite");
      window.setTimeout(() => (button.textContent = label), 2500);
    });
  }
}
