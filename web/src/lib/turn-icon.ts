// The tab's icon: the site logo normally, a gold disc with a dark dot while it is this seat's turn, so a
// player in another tab sees the turn in the tab strip as well as in the title.
const TURN_ICON =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="#F2B134"/><circle cx="16" cy="16" r="6" fill="#14161F"/></svg>',
  );
const LOGO = "/assets/brand/logo.svg";

/** Sets the page's icon to the turn mark (true) or the logo (false); the link element is reused. */
export function markFavicon(yourTurn: boolean): void {
  const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) return;
  const href = yourTurn ? TURN_ICON : LOGO;
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
  document.body.dataset.turnIcon = String(yourTurn);
}
