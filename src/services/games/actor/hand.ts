/**
 * What a seat holds, as the actor gives it to that seat's own clients (rooms/messages.ts carries it in the
 * `moved` and `hand` messages).
 */

/** A card of a hand, face included (the board's cards are ids in the schema state). */
export interface HandCard {
  id: string;
  name: string;
  element: string;
  n: number;
  e: number;
  s: number;
  w: number;
  champion: string;
}

/**
 * A seat's hand and what it may play: `legal` lists every legal move in notation ("E7@b3") when it is that
 * seat's turn, else []. Only that seat's own clients ever receive it.
 */
export interface SeatHand {
  cards: HandCard[];
  legal: string[];
}
