/** The communities context's public face: leaderboards (read-only API) and the operators' admin commands. */
export { CommunityService, CommunityAdmin, newCommunityId, plural, type CommunityKind, type Page } from "./service";
export { PageQuery } from "./schemas";
