/**
 * The engine's vocabulary. Everything here is plain JSON-serialisable data so that a game can be stored,
 * sent over the wire and re-simulated anywhere from (ruleset, seed, salt, options, actions).
 */

/** The rules a game is played by (src/engine/versions.ts says what each changed). */
export type RulesVersion = 1 | 2 | 3 | 4;
export type Seat = "A" | "B";
export type Ruleset = "classic" | "mutators";
export type Element = "ember" | "tide" | "gale" | "stone";
/** Squares a1..d4: file a-d (left to right), rank 1-4 (bottom to top). */
export type Square = string;
export type ChessPiece = "knight" | "bishop" | "rook" | "queen" | "king";
export type Mutator = "same" | "plus" | "combo" | "reverse" | "elemental";
export type ChampionId = "knight" | "bastion" | "usurper" | "herald" | "tidecaller" | "reaver";
export type Level = "random" | "easy" | "normal" | "hard";
/** What decided a finished game. Present only once the game is over. */
export type DecidedBy = "board_full" | "resignation" | "timeout" | "aborted";
export type Winner = Seat | "draw" | null;
/**
 * The secret a game is dealt from (src/engine/seed.ts; docs/RULES.md, "The deal"). Rules versions 1-3: an integer
 * 0..2^31-1. Version 4 on: 128 bits written as 32 lowercase hex digits, a string, since a JSON number cannot carry
 * 128 bits through parsers that read doubles.
 */
export type Seed = number | string;
/** Why a card flipped, in the order a placement resolves them (docs/RULES.md, "Captures"). */
export const CAPTURE_KINDS = ["same", "plus", "basic", "chess", "knight", "combo"] as const;
export type CaptureKind = (typeof CAPTURE_KINDS)[number];

export interface Ranks {
  n: number;
  e: number;
  s: number;
  w: number;
}

/** A card of the catalogue (or a champion). `id` is the short code used in notation, e.g. "E7". */
export interface CardDef {
  id: string;
  name: string;
  ranks: Ranks;
  element: Element;
  tier: number;
  /** Set on champion cards only. */
  champion?: ChampionId;
}

export interface ChessTile {
  square: Square;
  piece: ChessPiece;
}
export interface SquareElement {
  square: Square;
  element: Element;
}

/** Options chosen by the players; everything else comes from the seed. */
export interface GameOptions {
  ruleset: Ruleset;
  /** A seat without a chosen champion gets one drawn by the seed. */
  champions?: Partial<Record<Seat, ChampionId>>;
  /** Set by the service, not the players: the rules the game is played under (absent: the current version). */
  rulesVersion?: RulesVersion;
}

/** One occupied square as every viewer sees it (board cards are public). */
export interface BoardCell {
  square: Square;
  owner: Seat;
  card: string;
  name: string;
  element: Element;
  ranks: Ranks;
}

/** Public things that happened in one action, in order. Never names a card drawn into a hand. */
export type GameEvent =
  | { type: "placed"; seat: Seat; card: string; square: Square }
  | { type: "captured"; square: Square; card: string; from: Seat; to: Seat; by: CaptureKind }
  | { type: "drew"; seat: Seat; count: number }
  | { type: "resigned"; seat: Seat }
  | { type: "timed_out"; seat: Seat }
  | { type: "aborted" }
  | { type: "ended"; winner: Winner; decidedBy: DecidedBy; score: Record<Seat, number> };

/** An input to the engine. Placement is the only move; the rest are game actions. */
export type Action =
  /** `seat`, when given, must be the seat to move (otherwise `not_your_turn`); the engine infers it when absent. */
  { kind: "place"; card: string; square: Square; seat?: Seat } | { kind: "resign"; seat: Seat } | { kind: "timeout"; seat: Seat } | { kind: "abort" };

/** A square of the engine's board: the card on it and its owner, or null when empty. */
export type Cell = null | { card: string; owner: Seat };

/**
 * A placement as the engine keeps it. Its board after it is not kept (a live game would hold one board per
 * placement): it is the state's board right after the placement (ApplyResult's `state.board`), and for an
 * earlier placement it follows from replaying the actions; `shownMove` expands it into public cells when a
 * replay, an event or an answer shows the move.
 */
export interface MoveRecord {
  n: number;
  seat: Seat;
  card: string;
  square: Square;
  name: string;
  notation: string;
  captures: number;
  score: Record<Seat, number>;
}

/** A placement as shown (the spec's replay Move, plus the card and square it was parsed from). */
export type ShownMove = MoveRecord & { board: BoardCell[] };

export interface GameState {
  ruleset: Ruleset;
  rulesVersion: RulesVersion;
  seed: Seed;
  salt: string;
  /** sha256 hex over `${seed}:${salt}`, published at creation. */
  commitment: string;
  options: GameOptions;
  champions: Record<Seat, ChampionId>;
  firstPlayer: Seat;
  turn: Seat;
  /** 16 entries, index = file + 4 * (rank - 1); null when empty. */
  board: Cell[];
  hands: Record<Seat, string[]>;
  /** Remaining draw pile, next card first. */
  pile: string[];
  chessTiles: ChessTile[];
  /** Empty in classic. */
  mutators: Mutator[];
  /** Squares with an element (the elemental mutator); empty otherwise. */
  squareElements: SquareElement[];
  moves: MoveRecord[];
  /** Every accepted action, in order; (ruleset, seed, salt, options, actions) rebuilds the state. */
  actions: Action[];
  status: "active" | "finished";
  score: Record<Seat, number>;
  winner: Winner;
  decidedBy?: DecidedBy;
}

export type RefusalCode = "not_your_turn" | "illegal_move" | "game_over" | "bad_request";
export interface Refusal {
  ok: false;
  code: RefusalCode;
  detail: string;
}
export interface Applied {
  ok: true;
  state: GameState;
  events: GameEvent[];
  move?: MoveRecord;
}
export type ApplyResult = Applied | Refusal;

/** Public part shared by seat and spectator views. */
export interface PublicView {
  ruleset: Ruleset;
  rulesVersion: RulesVersion;
  status: "active" | "finished";
  turn: Seat;
  firstPlayer: Seat;
  moveCount: number;
  board: BoardCell[];
  chessTiles: ChessTile[];
  mutators: Mutator[];
  squareElements: SquareElement[];
  champions: Record<Seat, ChampionId>;
  /** Hand sizes of both seats. */
  hands: Record<Seat, number>;
  pile: number;
  score: Record<Seat, number>;
  winner: Winner;
  decidedBy?: DecidedBy;
  commitment: string;
  /** Cards placed so far in order (public history), as notations. */
  history: string[];
}

/** What one seat may know: the public view plus its own hand. */
export interface SeatView extends PublicView {
  seat: Seat;
  hand: CardDef[];
}

export type SpectatorView = PublicView;

/** The spec's Replay (2.1) plus the fields that make it re-simulable. */
export interface Replay {
  id: string;
  ruleset: Ruleset;
  /** Always written by buildReplay; replays saved before rules were versioned have none (version 1). */
  rulesVersion?: RulesVersion;
  players: Record<Seat, string>;
  seed: Seed;
  firstPlayer: Seat;
  score: Record<Seat, number>;
  moveCount: number;
  moves: ShownMove[];
  winner: Winner;
  chessTiles: ChessTile[];
  replayUrl: string;
  decidedBy: DecidedBy;
  salt: string;
  commitment: string;
  champions: Record<Seat, ChampionId>;
  mutators: Mutator[];
  squareElements: SquareElement[];
  /** Non-placement actions in order with the move count they followed (resign/timeout/abort). */
  endings: Array<{ after: number; action: Exclude<Action, { kind: "place" }> }>;
  /**
   * Cards left in each hand at the end (public once the seed is revealed). Always written by buildReplay and
   * required by verifyReplay: without it a chosen champion that was never placed could be swapped unnoticed.
   */
  finalHands?: Record<Seat, string[]>;
}
