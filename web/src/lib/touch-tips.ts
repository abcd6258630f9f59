// Tooltips on a touch screen, where `title` never shows: a tap on an explained element (a mutator's name, a
// seat's champion, a rules figure) opens its explanation in a bubble beside it; on a button (a square, a
// card of the hand, whose tap is a move) a long press opens it instead and the tap that ends the press is
// swallowed. Another tap anywhere closes the bubble. Mouse and keyboard users keep the native tooltips.
const LONG_PRESS_MS = 450;

/** Installs the touch tooltips on the page (once per page). */
export function enableTouchTips(): void {
  const bubble = document.createElement("div");
  bubble.className = "touch-tip";
  bubble.setAttribute("role", "tooltip");
  bubble.hidden = true;
  document.body.append(bubble);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let swallowClick = false;

  const hide = () => void (bubble.hidden = true);
  const show = (target: HTMLElement) => {
    bubble.textContent = target.title;
    bubble.hidden = false;
    const box = target.getBoundingClientRect();
    const width = Math.min(320, innerWidth - 16);
    bubble.style.width = `${width}px`;
    bubble.style.left = `${Math.max(8, Math.min(innerWidth - width - 8, box.left + box.width / 2 - width / 2))}px`;
    // Below the element when there is room, above it otherwise.
    const below = box.bottom + 8;
    bubble.style.top = `${below + bubble.offsetHeight < innerHeight ? below : Math.max(8, box.top - bubble.offsetHeight - 8)}px`;
  };

  document.addEventListener("pointerdown", (ev) => {
    if (ev.pointerType !== "touch") return;
    const target = (ev.target as HTMLElement).closest<HTMLElement>("[title]");
    const wasOpen = !bubble.hidden;
    hide();
    if (!target?.title) return;
    if (target.matches("button, a, input, select")) {
      timer = setTimeout(() => {
        swallowClick = true;
        show(target);
      }, LONG_PRESS_MS);
    } else if (!wasOpen || bubble.textContent !== target.title) show(target);
  });
  const cancel = () => clearTimeout(timer);
  document.addEventListener("pointerup", cancel);
  document.addEventListener("pointercancel", cancel);
  document.addEventListener("scroll", hide, { passive: true });
  // The click that ends a long press opened the explanation; it must not also play the card or the square.
  document.addEventListener(
    "click",
    (ev) => {
      if (!swallowClick) return;
      swallowClick = false;
      ev.preventDefault();
      ev.stopPropagation();
    },
    true,
  );
  document.addEventListener("contextmenu", (ev) => {
    if ((ev.target as HTMLElement).closest("[title]") && !bubble.hidden) ev.preventDefault();
  });
}
