/**
 * The migration notes that deprecated routes link to (`Link: <.../docs/migration#anchor>; rel="deprecation"`).
 * Each note's `id` is the anchor a route names.
 */
export interface MigrationNote {
  id: string;
  title: string;
  /** Paragraphs of plain text; `code` spans in backticks. */
  body: string[];
}

export const MIGRATION_NOTES: MigrationNote[] = [
  {
    id: "game-path",
    title: "GET /api/v1/game/{id} becomes GET /api/v1/games/{id}",
    body: [
      "The singular path `GET /api/v1/game/{id}` is deprecated since 2026-06-01 and will be removed on 2027-06-01 (the `Deprecation` and `Sunset` headers of its answers say the same).",
      "Until then it answers `308 Permanent Redirect` to `/api/v1/games/{id}`, which returns the same public game record. Clients that follow redirects keep working; to migrate, request `/api/v1/games/{id}` directly.",
      "Nothing else changes: the record's members, the problem documents (`not_found` for an unknown id) and the rate-limit policy (`reads`) are the same.",
    ],
  },
];
